//! The binary's allocator settings (`.cargo/config.toml`, compiled into
//! jemalloc): without them an idle workbench keeps what an analysis freed
//! for ten seconds or until the next key, and `examples/memory` settles
//! 15 MiB higher at 10,000 queries.

#[test]
fn freed_memory_goes_back_within_a_second_on_a_background_thread() {
    let conf =
        tikv_jemalloc_ctl::config::malloc_conf::read().expect("jemalloc's compiled-in settings");
    let settings: Vec<&str> = conf
        .split(',')
        .map(|s| s.trim_matches(|c: char| c == '\0' || c.is_whitespace()))
        .collect();
    assert!(settings.contains(&"background_thread:true"), "{conf:?}");
    assert!(settings.contains(&"dirty_decay_ms:1000"), "{conf:?}");
    assert!(
        tikv_jemalloc_ctl::opt::background_thread::read().expect("opt.background_thread"),
        "the setting took effect"
    );
}
