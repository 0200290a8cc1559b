//! The sample projects bundled in the binary: what the welcome screen
//! offers a newcomer and what `cqlmodel` opens without a file.

/// A bundled sample: its file name, what it shows, and its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub file: &'static str,
    pub shows: &'static str,
    pub text: &'static str,
}

/// Every bundled sample, the hotel model (the documentation's) first.
pub const SAMPLES: &[Sample] = &[
    Sample {
        file: "hotel.cqlm.ron",
        shows: "hotels and reservations (Apache Cassandra docs)",
        text: include_str!("../sample-projects/hotel.cqlm.ron"),
    },
    Sample {
        file: "logs.cqlm.ron",
        shows: "log messages from many servers, day buckets",
        text: include_str!("../sample-projects/logs.cqlm.ron"),
    },
    Sample {
        file: "devices.cqlm.ron",
        shows: "device events: a time series with shards and TTL",
        text: include_str!("../sample-projects/devices.cqlm.ron"),
    },
    Sample {
        file: "devices-options.cqlm.ron",
        shows: "four candidate keys for one time series compared",
        text: include_str!("../sample-projects/devices-options.cqlm.ron"),
    },
    Sample {
        file: "clickstream.cqlm.ron",
        shows: "sessions and clicks, a rolling window, a counter",
        text: include_str!("../sample-projects/clickstream.cqlm.ron"),
    },
    Sample {
        file: "likes.cqlm.ron",
        shows: "users who like items, timeuuid, counters",
        text: include_str!("../sample-projects/likes.cqlm.ron"),
    },
    Sample {
        file: "hotel-surrogate.cqlm.ron",
        shows: "the hotel model keyed by surrogate ids",
        text: include_str!("../sample-projects/hotel-surrogate.cqlm.ron"),
    },
    Sample {
        file: "weather.cqlm.ron",
        shows: "weather readings: per-table retention, TWCS, gc_grace",
        text: include_str!("../sample-projects/weather.cqlm.ron"),
    },
];

/// Every sample, loaded: for tests that hold on every one of them.
#[cfg(test)]
pub(crate) fn loaded() -> Vec<crate::model::Project> {
    SAMPLES
        .iter()
        .map(|s| {
            crate::model::load::from_str(s.text)
                .unwrap_or_else(|e| panic!("{} does not load: {e}", s.file))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_sample_loads_and_every_sample_file_is_bundled() {
        for s in SAMPLES {
            crate::model::load::from_str(s.text)
                .unwrap_or_else(|e| panic!("{} does not load: {e}", s.file));
        }
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/sample-projects");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .expect("sample-projects")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".cqlm.ron"))
            .collect();
        on_disk.sort();
        let mut bundled: Vec<String> = SAMPLES.iter().map(|s| s.file.to_string()).collect();
        bundled.sort();
        assert_eq!(bundled, on_disk);
    }
}
