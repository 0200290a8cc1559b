//! The top-level parts of a project an edit replaced, kept so the edit can
//! be undone without a copy of the whole project.

use crate::model::{
    Decision, Entity, Keyspace, Note, PartitionKeys, Project, Query, Relationship, Shared,
    Thresholds, UserType, Waiver, Workflow,
};

/// Parts of a project, each present only when it is to be put back.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sections {
    format: Option<u32>,
    name: Option<String>,
    keyspace: Option<Keyspace>,
    cassandra: Option<crate::model::physical::CassandraVersion>,
    thresholds: Option<Thresholds>,
    partition_keys: Option<PartitionKeys>,
    types: Option<Shared<Vec<UserType>>>,
    entities: Option<Shared<Vec<Entity>>>,
    relationships: Option<Shared<Vec<Relationship>>>,
    queries: Option<Shared<Vec<Shared<Query>>>>,
    workflow: Option<Shared<Workflow>>,
    decisions: Option<Shared<Vec<Decision>>>,
    notes: Option<Shared<Vec<Note>>>,
    waivers: Option<Shared<Vec<Waiver>>>,
    cluster: Option<crate::model::workload::Cluster>,
}

fn differing<T: Clone + PartialEq>(from: &T, to: &T) -> Option<T> {
    (from != to).then(|| to.clone())
}

/// One part compared once, kept for both directions when it differs.
fn both<T: Clone + PartialEq>(from: &T, to: &T, forth: &mut Option<T>, back: &mut Option<T>) {
    if from != to {
        *forth = Some(to.clone());
        *back = Some(from.clone());
    }
}

fn put<T>(slot: &mut T, value: Option<&T>, old: &mut Option<T>)
where
    T: Clone,
{
    if let Some(v) = value {
        *old = Some(std::mem::replace(slot, v.clone()));
    }
}

impl Sections {
    /// The parts of `to` that differ from `from`: applied to `from`, they
    /// give `to`. The project is taken apart field by field without `..`,
    /// so a new project field fails to compile here until it is covered.
    pub fn between(from: &Project, to: &Project) -> Sections {
        let Project {
            format,
            name,
            keyspace,
            cassandra,
            thresholds,
            partition_keys,
            types,
            entities,
            relationships,
            queries,
            workflow,
            decisions,
            notes,
            waivers,
            cluster,
        } = to;
        Sections {
            format: differing(&from.format, format),
            name: differing(&from.name, name),
            keyspace: differing(&from.keyspace, keyspace),
            cassandra: differing(&from.cassandra, cassandra),
            thresholds: differing(&from.thresholds, thresholds),
            partition_keys: differing(&from.partition_keys, partition_keys),
            types: differing(&from.types, types),
            entities: differing(&from.entities, entities),
            relationships: differing(&from.relationships, relationships),
            queries: differing(&from.queries, queries),
            workflow: differing(&from.workflow, workflow),
            decisions: differing(&from.decisions, decisions),
            notes: differing(&from.notes, notes),
            waivers: differing(&from.waivers, waivers),
            cluster: differing(&from.cluster, cluster),
        }
    }

    /// `(between(from, to), between(to, from))`, comparing each part once:
    /// the workbench records both directions of every edit.
    pub fn both_ways(from: &Project, to: &Project) -> (Sections, Sections) {
        let Project {
            format,
            name,
            keyspace,
            cassandra,
            thresholds,
            partition_keys,
            types,
            entities,
            relationships,
            queries,
            workflow,
            decisions,
            notes,
            waivers,
            cluster,
        } = to;
        let mut forth = Sections::default();
        let mut back = Sections::default();
        both(&from.format, format, &mut forth.format, &mut back.format);
        both(&from.name, name, &mut forth.name, &mut back.name);
        both(
            &from.keyspace,
            keyspace,
            &mut forth.keyspace,
            &mut back.keyspace,
        );
        both(
            &from.cassandra,
            cassandra,
            &mut forth.cassandra,
            &mut back.cassandra,
        );
        both(
            &from.thresholds,
            thresholds,
            &mut forth.thresholds,
            &mut back.thresholds,
        );
        both(
            &from.partition_keys,
            partition_keys,
            &mut forth.partition_keys,
            &mut back.partition_keys,
        );
        both(&from.types, types, &mut forth.types, &mut back.types);
        both(
            &from.entities,
            entities,
            &mut forth.entities,
            &mut back.entities,
        );
        both(
            &from.relationships,
            relationships,
            &mut forth.relationships,
            &mut back.relationships,
        );
        both(
            &from.queries,
            queries,
            &mut forth.queries,
            &mut back.queries,
        );
        both(
            &from.workflow,
            workflow,
            &mut forth.workflow,
            &mut back.workflow,
        );
        both(
            &from.decisions,
            decisions,
            &mut forth.decisions,
            &mut back.decisions,
        );
        both(&from.notes, notes, &mut forth.notes, &mut back.notes);
        both(
            &from.waivers,
            waivers,
            &mut forth.waivers,
            &mut back.waivers,
        );
        both(
            &from.cluster,
            cluster,
            &mut forth.cluster,
            &mut back.cluster,
        );
        (forth, back)
    }

    /// Whether putting these parts back changes nothing.
    pub fn is_empty(&self) -> bool {
        *self == Sections::default()
    }

    /// Puts the parts in place; returns the parts they replaced, which undo this.
    // `edit::apply` builds its inverse with `between` and drops this.
    #[allow(clippy::return_self_not_must_use)]
    pub fn apply(&self, p: &mut Project) -> Sections {
        let mut old = Sections::default();
        let Project {
            format,
            name,
            keyspace,
            cassandra,
            thresholds,
            partition_keys,
            types,
            entities,
            relationships,
            queries,
            workflow,
            decisions,
            notes,
            waivers,
            cluster,
        } = p;
        put(format, self.format.as_ref(), &mut old.format);
        put(name, self.name.as_ref(), &mut old.name);
        put(keyspace, self.keyspace.as_ref(), &mut old.keyspace);
        put(cassandra, self.cassandra.as_ref(), &mut old.cassandra);
        put(thresholds, self.thresholds.as_ref(), &mut old.thresholds);
        put(
            partition_keys,
            self.partition_keys.as_ref(),
            &mut old.partition_keys,
        );
        put(types, self.types.as_ref(), &mut old.types);
        put(entities, self.entities.as_ref(), &mut old.entities);
        put(
            relationships,
            self.relationships.as_ref(),
            &mut old.relationships,
        );
        put(queries, self.queries.as_ref(), &mut old.queries);
        put(workflow, self.workflow.as_ref(), &mut old.workflow);
        put(decisions, self.decisions.as_ref(), &mut old.decisions);
        put(notes, self.notes.as_ref(), &mut old.notes);
        put(waivers, self.waivers.as_ref(), &mut old.waivers);
        put(cluster, self.cluster.as_ref(), &mut old.cluster);
        old
    }
}
