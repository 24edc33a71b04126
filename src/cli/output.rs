//! The files a command writes when its work is done (summaries, tables, plots, models): each
//! path is checked before the work starts (that it can be written, and that it names neither
//! another output nor an input), so a bad one is an error at once, not after an hour of games;
//! and every write failure reads the same.

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

/// Checks the files a command will write, each named with the option that gives it
/// (`("--summary", path)`; `None` where the option is not given), before its work starts: no
/// two are the same file, none is one of the files the command reads (`inputs`, each named
/// too: `("--out", log)` for a games log that a run continues, `("a log given to merge",
/// path)`), and each can be written ([`check_writable`]).
pub fn check_outputs(
    outputs: &[(&str, Option<&Path>)],
    inputs: &[(&str, &Path)],
) -> Result<(), String> {
    let given: Vec<(&str, &Path)> = outputs
        .iter()
        .filter_map(|&(flag, path)| Some((flag, path?)))
        .collect();
    let named: Vec<(&str, &Path)> = inputs.iter().chain(&given).copied().collect();
    for (i, &(flag, path)) in named.iter().enumerate().skip(inputs.len()) {
        if let Some(&(other, _)) = named[..i].iter().find(|(_, p)| same_file(p, path)) {
            return Err(format!(
                "{other} and {flag} name the same file, {}: give each its own",
                path.display()
            ));
        }
    }
    given.iter().try_for_each(|&(_, path)| check_writable(path))
}

/// True when two paths name the same file: after resolving links and `..` where the file (or,
/// for a file not yet made, its folder) exists; as written otherwise.
fn same_file(a: &Path, b: &Path) -> bool {
    match (resolved(a), resolved(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a == b,
    }
}

/// The canonical form of `path`, or of its folder joined with its name when only the folder
/// exists.
fn resolved(path: &Path) -> Option<PathBuf> {
    if let Ok(found) = path.canonicalize() {
        return Some(found);
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(folder.canonicalize().ok()?.join(path.file_name()?))
}

/// `PREFIX.ext` for an output prefix (`--out results/sueca` gives `results/sueca.csv`): the
/// extension is added, never put in place of a dot already in the prefix.
pub fn prefixed(prefix: &Path, ext: &str) -> PathBuf {
    let mut path = prefix.as_os_str().to_owned();
    path.push(".");
    path.push(ext);
    PathBuf::from(path)
}

/// `PREFIX.csv`, `PREFIX.json` and `PREFIX.svg`, the table, data and plot of `curve` and
/// `scale` (`--out PREFIX`), each checked as [`check_outputs`] does.
pub fn table_outputs(prefix: &Path) -> Result<[PathBuf; 3], String> {
    let paths = ["csv", "json", "svg"].map(|ext| prefixed(prefix, ext));
    let named = paths.each_ref().map(|p| ("--out", Some(p.as_path())));
    check_outputs(&named, &[])?;
    Ok(paths)
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
        let ok = dir.join("ok.csv");
        assert!(check_outputs(&[("--a", None), ("--b", Some(&ok))], &[]).is_ok());
        let e = check_outputs(&[("--a", Some(&ok)), ("--b", Some(&dir))], &[]).unwrap_err();
        assert!(e.contains("directory"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn outputs_may_not_overwrite_each_other_or_the_inputs() {
        let dir = scratch("clash");
        let log = dir.join("games.jsonl");
        std::fs::create_dir_all(dir.join("x")).unwrap();
        let again = dir.join("x").join("..").join("games.jsonl");
        let e = check_outputs(&[("--out", Some(&log)), ("--summary", Some(&again))], &[]);
        assert_eq!(
            e.unwrap_err(),
            format!(
                "--out and --summary name the same file, {}: give each its own",
                again.display()
            )
        );
        let other = dir.join("a.jsonl");
        let inputs = [
            ("a log read", other.as_path()),
            ("the log replayed", &again),
        ];
        let e = check_outputs(&[("--summary", Some(&log))], &inputs).unwrap_err();
        assert!(
            e.starts_with("the log replayed and --summary name the same file"),
            "{e}"
        );
        assert!(!log.exists(), "a refused check created {}", log.display());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
