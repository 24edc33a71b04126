//! Long runs that survive interruptions and spread over a cluster: `match` and `tournament`
//! continue from their JSON-lines log, `--shard auto` reads a scheduler's task index, and a
//! tournament's crosstable and ratings.

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `cardsearch ARGS` with the environment `env`, run to its end with no input, killed (failing
/// the test) if it hangs.
fn cardsearch(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = crate::process::cardsearch();
    cmd.args(args);
    // The scheduler variables of the machine running the tests must not leak in.
    for var in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_COUNT",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_MAX",
        "JOB_COMPLETION_INDEX",
        "JOB_COMPLETIONS",
    ] {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied());
    crate::process::output(&mut cmd)
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A JSON summary without the measured times, which two runs of the same games never share.
fn without_time(path: &Path) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.remove("micros");
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    strip(&mut v);
    v
}

/// Starts `args` (which write the log `log`), kills it with SIGKILL once the log holds at least
/// `lines` games, and cuts the last game in half as a kill in mid-write would.
#[cfg(unix)]
fn kill_midway(args: &[&str], log: &Path, lines: usize) {
    let mut child = crate::process::spawn(
        crate::process::cardsearch()
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
    );
    let count = || {
        std::fs::read_to_string(log)
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    for _ in 0..3000 {
        if count() >= lines {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let text = std::fs::read_to_string(log).unwrap();
    assert!(text.lines().count() >= lines, "the run ended too soon");
    let last = text.lines().last().unwrap();
    let cut = text.len() - last.len() - 1 + last.len() / 2;
    std::fs::write(log, &text[..cut]).unwrap();
}

#[cfg(unix)]
#[test]
fn a_killed_match_resumes_to_the_uninterrupted_report() {
    let dir = scratch("resume-match");
    let p = |f: &str| dir.join(f).to_str().unwrap().to_string();
    let common = [
        "match",
        "--game",
        "tricks",
        "--deals",
        "30",
        "--iterations",
        "300",
        "--seed",
        "5",
        "--quiet",
    ];
    let with = |out: &str, summary: &str| {
        let mut v: Vec<String> = common.iter().map(|s| s.to_string()).collect();
        v.extend(["--out".into(), p(out), "--summary".into(), p(summary)]);
        v
    };
    let whole = with("whole.jsonl", "whole.json");
    ok(&cardsearch(
        &whole.iter().map(String::as_str).collect::<Vec<_>>(),
        &[],
    ));
    let args = with("killed.jsonl", "killed.json");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    kill_midway(&args, &dir.join("killed.jsonl"), 20);
    let out = cardsearch(&args, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    ok(&out);
    assert!(
        stderr.contains("warning") && stderr.contains("unfinished game"),
        "{stderr}"
    );
    assert_eq!(
        without_time(&dir.join("killed.json")),
        without_time(&dir.join("whole.json"))
    );
    // Every game once: 30 deals, two seatings each.
    let text = std::fs::read_to_string(dir.join("killed.jsonl")).unwrap();
    assert_eq!(text.lines().count(), 60);
    // Run again: nothing left to play, the same report.
    ok(&cardsearch(&args, &[]));
    assert_eq!(
        std::fs::read_to_string(dir.join("killed.jsonl")).unwrap(),
        text
    );
    assert_eq!(
        without_time(&dir.join("killed.json")),
        without_time(&dir.join("whole.json"))
    );
    // The same log with another budget is refused, naming the file and the field.
    let mut other = args.clone();
    other[6] = "301";
    let out = cardsearch(&other, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("killed.jsonl") && stderr.contains("budget"),
        "{stderr}"
    );
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The tournament used below: five agents on Tricks, 3 deals a pairing, 100 iterations a move.
const AGENTS: &str = "random,pimc,ismcts,uct,ismcts:c=2";

fn tournament_args(dir: &Path, name: &str, agents: &str, deals: &str) -> Vec<String> {
    let p = |ext: &str| {
        dir.join(format!("{name}.{ext}"))
            .to_str()
            .unwrap()
            .to_string()
    };
    [
        "tournament",
        "--game",
        "tricks",
        "--agents",
        agents,
        "--deals",
        deals,
        "--iterations",
        "100",
        "--seed",
        "3",
        "--quiet",
        "--out",
        &p("jsonl"),
        "--summary",
        &p("json"),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

#[test]
fn a_tournament_crosstable_equals_the_matches_played_one_by_one() {
    let dir = scratch("tournament-crosstable");
    let mut args = tournament_args(&dir, "t", AGENTS, "3");
    let svg = dir.join("t.svg");
    args.extend(["--plot".into(), svg.to_str().unwrap().into()]);
    let stdout = ok(&cardsearch(&strs(&args), &[]));
    assert!(
        stdout.contains("crosstable") && stdout.contains("ratings"),
        "{stdout}"
    );
    let summary = without_time(&dir.join("t.json"));
    let pairings = summary["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 10, "every pair of five agents");
    let agents: Vec<&str> = AGENTS.split(',').collect();
    for p in pairings {
        let (a, b) = (
            p["a"].as_u64().unwrap() as usize,
            p["b"].as_u64().unwrap() as usize,
        );
        let m = dir.join(format!("m{a}{b}.json"));
        ok(&cardsearch(
            &[
                "match",
                "--game",
                "tricks",
                "--a",
                agents[a],
                "--b",
                agents[b],
                "--deals",
                "3",
                "--iterations",
                "100",
                "--seed",
                "3",
                "--quiet",
                "--summary",
                m.to_str().unwrap(),
            ],
            &[],
        ));
        assert_eq!(p["report"], without_time(&m), "pairing {a} vs {b}");
    }
    let ratings = summary["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 5);
    assert_eq!(ratings[0]["elo"], 0.0, "anchored on the first agent");
    for r in ratings {
        let (lo, elo, hi) = (
            r["low"].as_f64().unwrap(),
            r["elo"].as_f64().unwrap(),
            r["high"].as_f64().unwrap(),
        );
        assert!(lo <= elo && elo <= hi, "{r}");
    }
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(
        plot.starts_with("<svg") && plot.contains("ismcts"),
        "an SVG naming the agents"
    );
}

#[cfg(unix)]
#[test]
fn a_killed_tournament_resumes_to_the_uninterrupted_report() {
    let dir = scratch("tournament-resume");
    let agents = "random,pimc,ismcts";
    ok(&cardsearch(
        &strs(&tournament_args(&dir, "whole", agents, "8")),
        &[],
    ));
    let args = tournament_args(&dir, "killed", agents, "8");
    // Killed in the second pairing (16 games a pairing).
    kill_midway(&strs(&args), &dir.join("killed.jsonl"), 20);
    let out = cardsearch(&strs(&args), &[]);
    ok(&out);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unfinished game"));
    assert_eq!(
        without_time(&dir.join("killed.json")),
        without_time(&dir.join("whole.json"))
    );
    let text = std::fs::read_to_string(dir.join("killed.jsonl")).unwrap();
    assert_eq!(text.lines().count(), 3 * 16, "every game once");
    // The log of another tournament is refused, naming the pairing.
    let other = tournament_args(&dir, "killed", "random,ismcts", "8");
    let out = cardsearch(&strs(&other), &[]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("another tournament"), "{stderr}");
}

/// The (pairing, deal, seating) of every game in some logs.
fn games_in(logs: &[PathBuf]) -> Vec<(String, String, u64, usize)> {
    let mut games = Vec::new();
    for log in logs {
        for line in std::fs::read_to_string(log).unwrap().lines() {
            let r = cardsearch::harness::log::parse_record(line).unwrap();
            games.push((r.agent_a, r.agent_b, r.deal_index, r.seating_index));
        }
    }
    games.sort();
    games
}

#[test]
fn auto_shards_under_slurm_and_kubernetes_merge_to_the_unsharded_run() {
    let dir = scratch("tournament-shards");
    let agents = "random,pimc,ismcts";
    let whole = tournament_args(&dir, "whole", agents, "7");
    ok(&cardsearch(&strs(&whole), &[]));
    let every = games_in(&[dir.join("whole.jsonl")]);
    assert_eq!(every.len(), 3 * 7 * 2);
    // Three schedulers' ways of saying "task k of 3".
    type Vars = fn(usize) -> Vec<(&'static str, String)>;
    let schemes: [(&str, Vars); 3] = [
        ("slurm-count", |k| {
            vec![
                ("SLURM_ARRAY_TASK_ID", k.to_string()),
                ("SLURM_ARRAY_TASK_COUNT", "3".into()),
            ]
        }),
        // --array=1-5:2 gives tasks 1, 3, 5.
        ("slurm-range", |k| {
            vec![
                ("SLURM_ARRAY_TASK_ID", (1 + 2 * k).to_string()),
                ("SLURM_ARRAY_TASK_MIN", "1".into()),
                ("SLURM_ARRAY_TASK_MAX", "5".into()),
                ("SLURM_ARRAY_TASK_STEP", "2".into()),
            ]
        }),
        ("kubernetes", |k| {
            vec![
                ("JOB_COMPLETION_INDEX", k.to_string()),
                ("JOB_COMPLETIONS", "3".into()),
            ]
        }),
    ];
    for (scheme, vars) in schemes {
        let mut logs = Vec::new();
        for k in 0..3 {
            let mut args = tournament_args(&dir, &format!("{scheme}{k}"), agents, "7");
            args.extend(["--shard".into(), "auto".into()]);
            let env = vars(k);
            let env: Vec<(&str, &str)> = env.iter().map(|(a, b)| (*a, b.as_str())).collect();
            ok(&cardsearch(&strs(&args), &env));
            logs.push(dir.join(format!("{scheme}{k}.jsonl")));
        }
        assert_eq!(games_in(&logs), every, "{scheme}: every game exactly once");
        let merged = dir.join(format!("{scheme}-merged.json"));
        let mut merge = vec!["merge".to_string()];
        merge.extend(logs.iter().map(|l| l.to_str().unwrap().to_string()));
        merge.extend(["--summary".into(), merged.to_str().unwrap().into()]);
        ok(&cardsearch(&strs(&merge), &[]));
        assert_eq!(
            without_time(&merged),
            without_time(&dir.join("whole.json")),
            "{scheme}"
        );
    }
    // Without a scheduler, `auto` is a clear error.
    let mut args = tournament_args(&dir, "none", agents, "7");
    args.extend(["--shard".into(), "auto".into()]);
    let out = cardsearch(&strs(&args), &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("SLURM_ARRAY_TASK_ID"));
}
