//! The start-up check that this CPU runs the instructions this build uses.
//!
//! `.cargo/config.toml` builds for x86-64-v3 (AVX2, BMI1/2, FMA, LZCNT, MOVBE: Intel since
//! Haswell, 2013, AMD since Excavator, 2015), which makes Hearts's searches 7-8% faster than
//! the x86-64-v2 baseline (docs/performance.md, "Built for x86-64-v3"). A binary built so and
//! started on an older CPU would die of an illegal instruction somewhere in its first search;
//! [`check`] turns that into one line that names the missing features and how to build for them.

/// One instruction-set feature: whether this build was compiled to use it, and whether the CPU
/// running it has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feature {
    /// The feature's name, as `target_feature` spells it.
    pub name: &'static str,
    /// Compiled in: the code may use its instructions anywhere.
    pub compiled: bool,
    /// Reported by this CPU.
    pub present: bool,
}

/// How to build for a CPU that lacks x86-64-v3 (the previous baseline, any x86-64 since about
/// 2009); `RUSTFLAGS` replaces the config file's flags, so frame pointers are repeated.
pub const PORTABLE_BUILD: &str =
    "RUSTFLAGS=\"-C force-frame-pointers=yes -C target-cpu=x86-64-v2\" cargo build --release";

/// The features of x86-64-v3 and v2 that the code generator can use on its own (beyond those
/// every x86-64 has), as this build and this CPU have them; empty on other architectures.
pub fn features() -> Vec<Feature> {
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! features {
            ($($name:tt),*) => {
                vec![$(Feature {
                    name: $name,
                    compiled: cfg!(target_feature = $name),
                    present: std::is_x86_feature_detected!($name),
                }),*]
            };
        }
        features!(
            "popcnt", "sse3", "ssse3", "sse4.1", "sse4.2", "avx", "avx2", "bmi1", "bmi2", "fma",
            "f16c", "lzcnt", "movbe"
        )
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec::new()
    }
}

/// The names of the features in `features` that the build uses and the CPU lacks.
pub fn missing(features: &[Feature]) -> Vec<&'static str> {
    features
        .iter()
        .filter(|f| f.compiled && !f.present)
        .map(|f| f.name)
        .collect()
}

/// `Ok` when the CPU has every feature in `features` that the build uses, else the one-line
/// message for the user.
pub fn check_features(features: &[Feature]) -> Result<(), String> {
    let missing = missing(features);
    if missing.is_empty() {
        return Ok(());
    }
    Err(format!(
        "this CPU lacks {} which this build of cardsearch uses; build it for this CPU with: {}",
        missing.join(", "),
        PORTABLE_BUILD
    ))
}

/// [`check_features`] on this build and this CPU. Call first thing in `main`.
pub fn check() -> Result<(), String> {
    check_features(&features())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feature(name: &'static str, compiled: bool, present: bool) -> Feature {
        Feature {
            name,
            compiled,
            present,
        }
    }

    #[test]
    fn only_features_both_compiled_in_and_absent_are_missing() {
        let features = [
            feature("avx2", true, false),
            feature("bmi2", true, true),
            feature("fma", false, false),
            feature("lzcnt", true, false),
        ];
        assert_eq!(missing(&features), ["avx2", "lzcnt"]);
        let message = check_features(&features).unwrap_err();
        assert!(message.contains("lacks avx2, lzcnt which"), "{message}");
        assert!(message.contains(PORTABLE_BUILD), "{message}");
        assert!(!message.contains('\n'));
    }

    #[test]
    fn a_cpu_with_every_compiled_feature_passes() {
        assert_eq!(
            check_features(&[feature("avx2", true, true), feature("fma", false, false)]),
            Ok(())
        );
        assert_eq!(check_features(&[]), Ok(()));
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_build_uses_what_the_config_file_asks_for() {
        // `.cargo/config.toml` builds for x86-64-v3; a build that silently lost the setting
        // (a RUSTFLAGS left set, a renamed target table) would lose its speed unnoticed. For a
        // portable build made on purpose (`PORTABLE_BUILD`), set CARDSEARCH_PORTABLE_BUILD=1.
        if std::env::var_os("CARDSEARCH_PORTABLE_BUILD").is_some() {
            return;
        }
        let compiled: Vec<_> = features()
            .into_iter()
            .filter(|f| f.compiled)
            .map(|f| f.name)
            .collect();
        for name in ["popcnt", "avx2", "bmi1", "bmi2", "fma", "lzcnt", "movbe"] {
            assert!(
                compiled.contains(&name),
                "{name} not compiled in (only {compiled:?}): the x86-64-v3 setting of \
                 .cargo/config.toml was lost; CARDSEARCH_PORTABLE_BUILD=1 skips this check \
                 for a portable build made on purpose"
            );
        }
    }
}
