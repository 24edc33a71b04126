//! The files a command writes when its work is done (summaries, tables, plots, models): each
//! path is checked before the work starts, so one that cannot be written is an error at once,
//! not after an hour of games, and every write failure reads the same.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// The error of a path that cannot be written.
fn cannot_write(path: &Path, e: impl std::fmt::Display) -> String {
    format!("cannot write {}: {e}", path.display())
}

/// Checks that `path` can be written later, changing nothing there now: an existing file is
/// opened for appending and closed again (its contents stay as they are), a missing one is
/// created and removed. A directory, a missing folder or a file without write permission is
/// the same error the write itself would give.
pub fn check_writable(path: &Path) -> Result<(), String> {
    let fail = |e| cannot_write(path, e);
    if path.exists() {
        OpenOptions::new().append(true).open(path).map_err(fail)?;
    } else {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(fail)?;
        std::fs::remove_file(path).map_err(fail)?;
    }
    Ok(())
}

/// [`check_writable`] of every path that is given.
pub fn check_all<'a>(paths: impl IntoIterator<Item = Option<&'a Path>>) -> Result<(), String> {
    paths.into_iter().flatten().try_for_each(check_writable)
}

/// `PREFIX.ext` for an output prefix (`--out results/sueca` gives `results/sueca.csv`): the
/// extension is added, never put in place of a dot already in the prefix.
pub fn prefixed(prefix: &Path, ext: &str) -> PathBuf {
    let mut path = prefix.as_os_str().to_owned();
    path.push(".");
    path.push(ext);
    PathBuf::from(path)
}

/// Writes `text` to `path`, replacing what was there.
pub fn write_text(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| cannot_write(path, e))
}

/// Writes `value` to `path` as pretty JSON and a newline.
pub fn write_json(path: &Path, value: &impl Serialize) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).expect("serialisable");
    write_text(path, &(text + "\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("cardsearch-output-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_check_changes_nothing() {
        let dir = scratch("unchanged");
        let earlier = dir.join("earlier.json");
        std::fs::write(&earlier, "kept").unwrap();
        check_writable(&earlier).unwrap();
        assert_eq!(std::fs::read_to_string(&earlier).unwrap(), "kept");
        let fresh = dir.join("fresh.json");
        check_writable(&fresh).unwrap();
        assert!(!fresh.exists(), "the check left {} behind", fresh.display());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_prefix_keeps_its_dots() {
        assert_eq!(
            prefixed(Path::new("runs/c0.7"), "csv"),
            Path::new("runs/c0.7.csv")
        );
        assert_eq!(prefixed(Path::new("curve"), "svg"), Path::new("curve.svg"));
    }

    #[test]
    fn unwritable_paths_are_named() {
        let dir = scratch("refused");
        let missing = dir.join("no-such-folder").join("x.json");
        let e = check_writable(&missing).unwrap_err();
        assert!(
            e.starts_with(&format!("cannot write {}: ", missing.display())),
            "{e}"
        );
        let e = check_writable(&dir).unwrap_err();
        assert!(e.contains("directory"), "{e}");
        assert!(
            check_all([
                None,
                Some(dir.join("ok.csv").as_path()),
                Some(dir.as_path())
            ])
            .is_err()
        );
        assert!(check_all([None, Some(dir.join("ok.csv").as_path())]).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
