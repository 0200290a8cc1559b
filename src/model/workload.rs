//! The workload the design must carry: how often each query runs and at
//! which consistency level, how often rows change, and the cluster that
//! serves them. Every figure is optional; the cost module (`derive::cost`)
//! stands in a stated default for one left out and says so.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Requests (or updates) per second: the average and, optionally, the
/// peak the cluster must take.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Load {
    pub avg: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak: Option<f64>,
}

impl Load {
    /// The peak, else the average times the assumed peak factor.
    pub fn peak_or_assumed(&self) -> (f64, bool) {
        match self.peak {
            Some(p) => (p.max(self.avg), false),
            None => (self.avg * ASSUMED_PEAK_FACTOR, true),
        }
    }
}

/// Peak over average when no peak is stated: a day's busiest hour commonly
/// runs at two to three times the day's average; two is the milder guess.
pub const ASSUMED_PEAK_FACTOR: f64 = 2.0;

/// The consistency level a query reads at (`LOCAL_QUORUM` when left out,
/// the drivers' usual production choice for multi-DC clusters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Consistency {
    One,
    Two,
    Three,
    Quorum,
    #[default]
    LocalQuorum,
    EachQuorum,
    All,
    LocalOne,
    Serial,
    LocalSerial,
}

impl Consistency {
    pub const ALL: [Consistency; 10] = [
        Consistency::One,
        Consistency::Two,
        Consistency::Three,
        Consistency::Quorum,
        Consistency::LocalQuorum,
        Consistency::EachQuorum,
        Consistency::All,
        Consistency::LocalOne,
        Consistency::Serial,
        Consistency::LocalSerial,
    ];

    /// The name CQL and the drivers use.
    pub fn cql(self) -> &'static str {
        match self {
            Consistency::One => "ONE",
            Consistency::Two => "TWO",
            Consistency::Three => "THREE",
            Consistency::Quorum => "QUORUM",
            Consistency::LocalQuorum => "LOCAL_QUORUM",
            Consistency::EachQuorum => "EACH_QUORUM",
            Consistency::All => "ALL",
            Consistency::LocalOne => "LOCAL_ONE",
            Consistency::Serial => "SERIAL",
            Consistency::LocalSerial => "LOCAL_SERIAL",
        }
    }

    /// Replicas a read at this level waits for, given the replication
    /// factor of each data centre and of the coordinator's own (`local`).
    /// A quorum is ⌊RF/2⌋ + 1; `SERIAL` reads run Paxos over a quorum of
    /// all replicas, `LOCAL_SERIAL` over the local ones; no level asks for
    /// more replicas than exist.
    pub fn replicas(self, local: u32, per_dc: &[u32]) -> u32 {
        let total: u32 = per_dc.iter().fold(0u32, |s, f| s.saturating_add(*f));
        let quorum = |rf: u32| rf / 2 + 1;
        let n = match self {
            Consistency::One | Consistency::LocalOne => 1,
            Consistency::Two => 2,
            Consistency::Three => 3,
            Consistency::Quorum | Consistency::Serial => quorum(total),
            Consistency::LocalQuorum | Consistency::LocalSerial => quorum(local),
            Consistency::EachQuorum => per_dc.iter().map(|f| quorum(*f)).sum(),
            Consistency::All => total,
        };
        n.min(total).max(1)
    }
}

/// The cluster the design runs on. Data centres and their replication
/// come from the keyspace; the rest is the team's to state.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cluster {
    /// Nodes in each data centre (one figure for all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes_per_dc: Option<u32>,
    /// Nodes of named data centres that differ from `nodes_per_dc`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub nodes: BTreeMap<String, u32>,
    /// Replica operations (reads and writes) one node serves per second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_requests: Option<f64>,
    /// Data one node may hold, in GB, before compaction headroom.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_disk_gb: Option<f64>,
}

impl Cluster {
    pub(crate) fn is_default(&self) -> bool {
        *self == Cluster::default()
    }
}

/// Whether the project states any workload figure (a query's load or
/// consistency, an update rate, the cluster): the reports then show the
/// cost, and the workbench its cost tab.
pub fn states_workload(project: &super::Project) -> bool {
    !project.cluster.is_default()
        || project
            .queries
            .iter()
            .any(|q| q.load.is_some() || q.consistency.is_some())
        || project.entities.iter().any(|e| e.updates.is_some())
        || project.relationships.iter().any(|r| r.updates.is_some())
}

/// Nodes per data centre when the project states none: three, the fewest
/// that keep `LOCAL_QUORUM` with one node down at RF 3.
pub const DEFAULT_NODES_PER_DC: u32 = 3;

/// A node's replica operations per second when the team states none: a
/// planning figure for an 8-core node (`DataStax`'s sizing guides quote a
/// few thousand operations per core); measure yours with `loadtest`.
pub const DEFAULT_NODE_REQUESTS: f64 = 10_000.0;

/// Data per node when the team states none: 1 TB, the density the Apache
/// Cassandra and `DataStax` hardware guidance keeps streaming, repair and
/// bootstrap times reasonable at.
pub const DEFAULT_NODE_DISK_GB: f64 = 1_000.0;

/// Requests per second assumed for a query that states none.
pub const DEFAULT_QUERY_RATE: f64 = 1.0;

#[cfg(test)]
mod tests {
    use super::Consistency;

    /// Hand-worked: RF 3 in one DC — a quorum is 2; RF 3 + 3 — QUORUM is
    /// 4 of 6, `LOCAL_QUORUM` 2, `EACH_QUORUM` 2 + 2, ALL 6; THREE on RF 2 is
    /// capped at the 2 replicas there are.
    #[test]
    fn replicas_contacted_by_level() {
        assert_eq!(Consistency::LocalQuorum.replicas(3, &[3]), 2);
        assert_eq!(Consistency::One.replicas(3, &[3]), 1);
        assert_eq!(Consistency::Quorum.replicas(3, &[3, 3]), 4);
        assert_eq!(Consistency::LocalQuorum.replicas(3, &[3, 3]), 2);
        assert_eq!(Consistency::EachQuorum.replicas(3, &[3, 3]), 4);
        assert_eq!(Consistency::All.replicas(3, &[3, 3]), 6);
        assert_eq!(Consistency::Three.replicas(2, &[2]), 2);
        assert_eq!(Consistency::LocalQuorum.replicas(5, &[5]), 3);
        assert_eq!(Consistency::Quorum.replicas(1, &[1]), 1);
    }
}
