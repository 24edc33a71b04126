//! `--shard I/N` and `--shard auto`: which part of a match or tournament this process plays.
//!
//! `auto` takes the index and count from the scheduler that started the process: a Slurm job
//! array (`SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_COUNT`, or `SLURM_ARRAY_TASK_MIN`/`MAX`
//! and `SLURM_ARRAY_TASK_STEP`) or a Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`, with the
//! completions count passed in as `JOB_COMPLETIONS` or as `--shard auto/N`). See docs/cluster.md.

/// Parses `--shard` with the process environment.
pub fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    parse_shard_with(s, &|name| std::env::var(name).ok())
}

/// Parses `--shard`: `I/N` with `I < N`, `auto` or `auto/N`, reading variables through `env`.
pub fn parse_shard_with(
    s: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<(u64, u64), String> {
    let err = || {
        format!("malformed --shard '{s}': expected I/N with 0 <= I < N (e.g. 0/4), auto or auto/N")
    };
    let (i, n) = s.split_once('/').unwrap_or((s, ""));
    let count = match n {
        "" if i == "auto" => None,
        _ => Some(n.parse::<u64>().map_err(|_| err())?),
    };
    let (index, count) = if i == "auto" {
        scheduler_shard(env, count)?
    } else {
        (i.parse().map_err(|_| err())?, count.ok_or_else(err)?)
    };
    if count == 0 {
        return Err(format!("--shard {s}: the shard count must be at least 1"));
    }
    if index >= count {
        return Err(format!(
            "--shard {s}: shard index {index} is not below the shard count {count}"
        ));
    }
    Ok((index, count))
}

/// Index and count from Slurm or Kubernetes; `count` (from `auto/N`) overrides the scheduler's.
fn scheduler_shard(
    env: &dyn Fn(&str) -> Option<String>,
    count: Option<u64>,
) -> Result<(u64, u64), String> {
    let num = |name: &str| -> Result<Option<u64>, String> {
        env(name)
            .map(|v| {
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| format!("--shard auto: {name}='{v}' is not a whole number"))
            })
            .transpose()
    };
    if let Some(id) = num("SLURM_ARRAY_TASK_ID")? {
        let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let step = num("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
        if id < min || (id - min) % step != 0 {
            return Err(format!(
                "--shard auto: SLURM_ARRAY_TASK_ID={id} is not in the array {min}, {}, …",
                min + step
            ));
        }
        let from_range = num("SLURM_ARRAY_TASK_MAX")?.map(|max| max.saturating_sub(min) / step + 1);
        let count = count
            .or(num("SLURM_ARRAY_TASK_COUNT")?)
            .or(from_range)
            .ok_or("--shard auto: SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX is")?;
        return Ok(((id - min) / step, count));
    }
    if let Some(index) = num("JOB_COMPLETION_INDEX")? {
        let count = count.or(num("JOB_COMPLETIONS")?).ok_or(
            "--shard auto: JOB_COMPLETION_INDEX is set but not the completions count: set \
             JOB_COMPLETIONS in the Job's env or give --shard auto/N",
        )?;
        return Ok((index, count));
    }
    Err(
        "--shard auto: no SLURM_ARRAY_TASK_ID (Slurm job array) or JOB_COMPLETION_INDEX \
         (Kubernetes Indexed Job) in the environment; give --shard I/N elsewhere"
            .to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }

    #[test]
    fn explicit_shards() {
        let none = with(&[]);
        assert_eq!(parse_shard_with("1/4", &none), Ok((1, 4)));
        for bad in ["4/4", "1", "a/b", "", "1/0", "auto/x"] {
            assert!(parse_shard_with(bad, &none).is_err(), "{bad}");
        }
        let e = parse_shard_with("auto", &none).unwrap_err();
        assert!(
            e.contains("SLURM_ARRAY_TASK_ID") && e.contains("JOB_COMPLETION_INDEX"),
            "{e}"
        );
    }

    #[test]
    fn slurm_arrays() {
        let count = with(&[
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "5"),
        ]);
        assert_eq!(parse_shard_with("auto", &count), Ok((2, 5)));
        // --array=3-9:3 gives tasks 3, 6, 9.
        let range = with(&[
            ("SLURM_ARRAY_TASK_ID", "6"),
            ("SLURM_ARRAY_TASK_MIN", "3"),
            ("SLURM_ARRAY_TASK_MAX", "9"),
            ("SLURM_ARRAY_TASK_STEP", "3"),
        ]);
        assert_eq!(parse_shard_with("auto", &range), Ok((1, 3)));
        let off = with(&[
            ("SLURM_ARRAY_TASK_ID", "7"),
            ("SLURM_ARRAY_TASK_MIN", "3"),
            ("SLURM_ARRAY_TASK_STEP", "3"),
            ("SLURM_ARRAY_TASK_MAX", "9"),
        ]);
        assert!(parse_shard_with("auto", &off).is_err());
        let alone = with(&[("SLURM_ARRAY_TASK_ID", "1")]);
        assert!(
            parse_shard_with("auto", &alone)
                .unwrap_err()
                .contains("SLURM_ARRAY_TASK_COUNT")
        );
        assert_eq!(parse_shard_with("auto/3", &alone), Ok((1, 3)));
        let past = with(&[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "5"),
        ]);
        assert!(parse_shard_with("auto", &past).is_err());
    }

    #[test]
    fn kubernetes_indexed_jobs() {
        let k = with(&[("JOB_COMPLETION_INDEX", "3"), ("JOB_COMPLETIONS", "4")]);
        assert_eq!(parse_shard_with("auto", &k), Ok((3, 4)));
        let k = with(&[("JOB_COMPLETION_INDEX", "3")]);
        assert!(
            parse_shard_with("auto", &k)
                .unwrap_err()
                .contains("JOB_COMPLETIONS")
        );
        assert_eq!(parse_shard_with("auto/8", &k), Ok((3, 8)));
        let bad = with(&[("JOB_COMPLETION_INDEX", "x"), ("JOB_COMPLETIONS", "4")]);
        assert!(
            parse_shard_with("auto", &bad)
                .unwrap_err()
                .contains("JOB_COMPLETION_INDEX='x'")
        );
    }
}
