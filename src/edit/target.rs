//! What an edit addresses: an item of the project by position, and the
//! item a RON text edit replaces.

use crate::model::load;
use crate::model::physical::CassandraVersion;
use crate::model::{
    Attribute, Decision, Entity, Keyspace, PartitionKeys, Project, Query, Relationship, Thresholds,
    Transition,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The project's settings as one item for the RON editor: the keyspace
/// (name, replication per data centre, durable writes), the target
/// Cassandra version, the review's thresholds and the partition key rule.
#[derive(Serialize, Deserialize)]
#[serde(rename = "Settings", deny_unknown_fields)]
struct Settings {
    keyspace: Keyspace,
    #[serde(default)]
    cassandra: CassandraVersion,
    #[serde(default)]
    thresholds: Thresholds,
    #[serde(default)]
    partition_keys: PartitionKeys,
}

/// Something in the project the designer can select and act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    Entity(usize),
    Attribute(usize, usize),
    Relationship(usize),
    RelAttribute(usize, usize),
    Query(usize),
    Transition(usize),
    Table(usize),
    Column(usize, usize),
}

/// The item a RON editor replaces.
#[derive(Clone, Debug, PartialEq)]
pub enum EditTarget {
    Entity(usize),
    Attribute(crate::model::resolve::NodeId, usize),
    Relationship(usize),
    Query(usize),
    Transition(usize),
    /// The decision of a query (created when applied, if new).
    Decision(String),
    /// The keyspace, target version, thresholds and partition key rule.
    Settings,
}

fn pretty<T: Serialize>(v: &T) -> String {
    load::item_to_string(v)
}

fn parse<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    load::item_from_str(text).map_err(|e| e.to_string())
}

impl EditTarget {
    pub fn label(&self, p: &Project) -> String {
        use crate::model::resolve::NodeId;
        match self {
            EditTarget::Entity(i) => {
                format!("entity {}", p.entities.get(*i).map_or("?", |e| &e.name))
            }
            EditTarget::Attribute(NodeId::Entity(e), a) => format!(
                "attribute {}",
                p.entities
                    .get(*e)
                    .and_then(|x| x.attributes.get(*a))
                    .map_or("?", |x| &x.name)
            ),
            EditTarget::Attribute(NodeId::Rel(r), a) => format!(
                "attribute {}",
                p.relationships
                    .get(*r)
                    .and_then(|x| x.attributes.get(*a))
                    .map_or("?", |x| &x.name)
            ),
            EditTarget::Relationship(i) => {
                format!(
                    "relationship {}",
                    p.relationships.get(*i).map_or("?", |r| &r.name)
                )
            }
            EditTarget::Query(i) => format!("query {}", p.queries.get(*i).map_or("?", |q| &q.id)),
            EditTarget::Transition(i) => format!("transition {}", i + 1),
            EditTarget::Decision(q) => format!("decision for {q}"),
            EditTarget::Settings => "project settings".into(),
        }
    }

    /// The item as pretty RON, or `None` when it no longer exists.
    pub fn render(&self, p: &Project) -> Option<String> {
        use crate::model::resolve::NodeId;
        Some(match self {
            EditTarget::Entity(i) => pretty(p.entities.get(*i)?),
            EditTarget::Attribute(NodeId::Entity(e), a) => {
                pretty(p.entities.get(*e)?.attributes.get(*a)?)
            }
            EditTarget::Attribute(NodeId::Rel(r), a) => {
                pretty(p.relationships.get(*r)?.attributes.get(*a)?)
            }
            EditTarget::Relationship(i) => pretty(p.relationships.get(*i)?),
            EditTarget::Query(i) => pretty(p.queries.get(*i)?),
            EditTarget::Transition(i) => pretty(p.workflow.transitions.get(*i)?),
            EditTarget::Decision(q) => {
                pretty(&p.decision(q).cloned().unwrap_or_else(|| Decision::new(q)))
            }
            EditTarget::Settings => pretty(&Settings {
                keyspace: p.keyspace.clone(),
                cassandra: p.cassandra,
                thresholds: p.thresholds.clone(),
                partition_keys: p.partition_keys,
            }),
        })
    }

    /// Puts parsed text in place of the item; syntax errors carry a position.
    pub fn replace(&self, p: &mut Project, text: &str) -> Result<(), String> {
        use crate::model::resolve::NodeId;
        let missing = || "the item no longer exists".to_string();
        match self {
            EditTarget::Entity(i) => {
                *p.entities.get_mut(*i).ok_or_else(missing)? = parse::<Entity>(text)?;
            }
            EditTarget::Attribute(NodeId::Entity(e), a) => {
                *p.entities
                    .get_mut(*e)
                    .and_then(|x| x.attributes.get_mut(*a))
                    .ok_or_else(missing)? = parse::<Attribute>(text)?;
            }
            EditTarget::Attribute(NodeId::Rel(r), a) => {
                *p.relationships
                    .get_mut(*r)
                    .and_then(|x| x.attributes.get_mut(*a))
                    .ok_or_else(missing)? = parse::<Attribute>(text)?;
            }
            EditTarget::Relationship(i) => {
                *p.relationships.get_mut(*i).ok_or_else(missing)? = parse::<Relationship>(text)?;
            }
            EditTarget::Query(i) => {
                *p.queries.get_mut(*i).ok_or_else(missing)? = parse::<Query>(text)?.into();
            }
            EditTarget::Transition(i) => {
                *p.workflow.transitions.get_mut(*i).ok_or_else(missing)? =
                    parse::<Transition>(text)?;
            }
            EditTarget::Decision(q) => {
                let d: Decision = parse(text)?;
                if &d.query != q {
                    return Err(format!("this decision belongs to {q}; keep query: \"{q}\""));
                }
                *p.decision_mut(q) = d;
                p.prune_decisions();
            }
            EditTarget::Settings => {
                let s: Settings = parse(text)?;
                p.keyspace = s.keyspace;
                p.cassandra = s.cassandra;
                p.thresholds = s.thresholds;
                p.partition_keys = s.partition_keys;
            }
        }
        Ok(())
    }
}
