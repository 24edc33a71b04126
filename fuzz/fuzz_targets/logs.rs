//! Match and tournament logs as `replay`, `merge` and a resumed match read them: arbitrary text
//! as a log file. Reading, resuming, replaying every record and merging them may fail with an
//! error, never panic; a record that parses writes back to JSON that parses to the same record.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use cardsearch::harness::log::{
    Logged, Origin, merge_records, parse_record, read_log, replay_record, resume_log,
};
use libfuzzer_sys::fuzz_target;

/// One file per fuzzing process, rewritten for every input.
fn log_path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        std::env::temp_dir().join(format!("cardsearch-fuzz-log-{}.jsonl", std::process::id()))
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut records = Vec::new();
    for (i, line) in text.lines().take(64).enumerate() {
        let Ok(record) = parse_record(line) else {
            continue;
        };
        let again = serde_json::to_string(&record).expect("a record serializes");
        assert_eq!(parse_record(&again).as_ref(), Ok(&record), "{again}");
        let _ = replay_record(&record);
        let origin = Origin {
            path: "fuzz".into(),
            line: i + 1,
        };
        records.push(Logged { origin, record });
    }
    let _ = merge_records(&records);
    let path = log_path();
    std::fs::write(path, data).expect("the temporary log is writable");
    let _ = read_log(path);
    let _ = resume_log(path);
});
