//! Generated projects of any size, for benchmarks and property tests.
//! Deterministic for a seed, without a random-number crate: a small
//! `SplitMix64` is all the variety needed.

use super::{
    Attribute, Cardinality, Count, CqlType, Dir, Entity, Native, Order, Period, Project, Query,
    Range, RangeOp, Relationship, Transition,
};

/// `SplitMix64`: tiny, fast and good enough for test data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

const TYPES: [Native; 8] = [
    Native::Text,
    Native::Int,
    Native::Bigint,
    Native::Timestamp,
    Native::Uuid,
    Native::Date,
    Native::Boolean,
    Native::Double,
];

/// A project of `entities` entities chained by 1:n relationships (every
/// fourth one m:n), and `queries` access patterns over them: each searches
/// by equality on its own or its parent's key or plain attributes, some
/// with a range, an ordering and a limit.
pub fn project(entities: usize, queries: usize, seed: u64) -> Project {
    let mut rng = Rng::new(seed);
    let mut p = Project::empty("synthetic");
    p.keyspace.name = "synthetic".into();
    let entities = entities.max(1);
    for i in 0..entities {
        let n_attrs = 3 + rng.below(5);
        let mut attributes = vec![Attribute {
            distinct: None,
            size: Some(12.0),
            ..Attribute::new(&format!("e{i}_id"), CqlType::Native(Native::Uuid))
        }];
        for j in 0..n_attrs {
            let ty = TYPES[rng.below(TYPES.len())];
            let mut a = Attribute::new(&format!("a{j}"), CqlType::Native(ty));
            if ty == Native::Text {
                a.size = Some((8 + rng.below(64)) as f64);
            }
            a.distinct = Some((10 + rng.below(100_000)) as f64);
            a.mutable = rng.chance(10);
            attributes.push(a);
        }
        if rng.chance(20) {
            let mut tags = Attribute::new("tags", CqlType::Set(Box::new(CqlType::text())));
            tags.elements = Some(5.0);
            attributes.push(tags);
        }
        p.entities.push(Entity {
            name: format!("E{i}"),
            short: None,
            plural: None,
            owner: None,
            owners: vec![],
            key: vec![format!("e{i}_id")],
            unique: vec![],
            attributes,
            count: Some((100 + rng.below(1_000_000)) as f64),
            per: None,
            retention_days: None,
            retention_unit: None,
            ttl: false,
            updates: None,
        });
    }
    for i in 1..entities {
        let parent = rng.below(i);
        let many = i % 4 == 0;
        p.relationships.push(Relationship {
            name: format!("r{i}"),
            from: format!("E{parent}"),
            to: format!("E{i}"),
            cardinality: if many {
                Cardinality::ManyToMany
            } else {
                Cardinality::OneToMany
            },
            to_per_from: Some(Count {
                avg: (1 + rng.below(500)) as f64,
                max: Some((500 + rng.below(5000)) as f64),
                per: if rng.chance(10) {
                    Some(Period::Day)
                } else {
                    None
                },
            }),
            from_per_to: many.then_some(Count {
                avg: (1 + rng.below(20)) as f64,
                max: None,
                per: None,
            }),
            attributes: vec![],
            written_by_job: false,
            updates: None,
        });
    }
    for qn in 0..queries {
        let e = rng.below(entities);
        let ent = &p.entities[e];
        let attrs: Vec<String> = ent.attributes.iter().map(|a| a.name.clone()).collect();
        let temporal: Vec<String> = ent
            .attributes
            .iter()
            .filter(|a| a.ty.is_temporal())
            .map(|a| a.name.clone())
            .collect();
        let mut q = Query::new(
            &format!("Q{}", qn + 1),
            &format!("Find E{e} rows, pattern {qn}"),
            &format!("E{e}"),
        );
        // Search by the parent's key (a one-to-many lookup) or an attribute.
        let parent_rel = if e > 0 {
            p.relationships
                .get(e - 1)
                .filter(|r| r.cardinality == Cardinality::OneToMany)
        } else {
            None
        };
        match (parent_rel, rng.below(3)) {
            (Some(r), 0 | 1) => {
                let pk = p
                    .entities
                    .iter()
                    .find(|x| x.name == r.from)
                    .map(|x| x.key[0].clone());
                if let Some(pk) = pk {
                    q.equality.push(format!("{}.{pk} via {}", r.from, r.name));
                }
            }
            (_, 2) => q.equality.push(ent.key[0].clone()),
            _ => q
                .equality
                .push(attrs[1 + rng.below(attrs.len() - 1)].clone()),
        }
        if q.equality.iter().all(|a| a != &ent.key[0]) {
            if let Some(t) = temporal.first() {
                if !q.equality.contains(t) && rng.chance(50) {
                    q.range = Some(Range {
                        attr: t.clone(),
                        op: RangeOp::Between,
                    });
                    q.order.push(Order {
                        attr: t.clone(),
                        dir: if rng.chance(50) { Dir::Desc } else { Dir::Asc },
                    });
                }
            }
            if rng.chance(30) {
                q.limit = Some(10 + rng.below(100) as u32);
            }
        }
        let n_ret = 1 + rng.below(attrs.len());
        for a in attrs.iter().take(n_ret) {
            q.returns.push(a.clone());
        }
        p.queries.push(q.into());
    }
    if let Some(first) = p.queries.first() {
        p.workflow.entry.push(first.id.clone());
    }
    for w in p.queries.windows(2).step_by(3) {
        p.workflow.transitions.push(Transition {
            from: w[0].id.clone(),
            to: w[1].id.clone(),
            feeds: vec![],
        });
    }
    p
}

/// `n` queries, each searching one entity by another attribute: `n`
/// tables of the same rows, all written by every insert (the shape that
/// once made reports grow with the square of the tables).
pub fn tables_of_one_entity(n: usize) -> Project {
    use std::fmt::Write as _;
    let (mut attrs, mut queries, mut entry) = (String::new(), String::new(), String::new());
    for i in 0..n {
        let _ = write!(attrs, "Attribute(name: \"a{i}\", type: \"text\"),");
        let _ = write!(
            queries,
            "Query(id: \"Q{i}\", text: \"by a{i}\", rows: \"Item\", equality: [\"a{i}\"], returns: [\"id\"]),"
        );
        let _ = write!(entry, "\"Q{i}\",");
    }
    let text = format!(
        "Project(format: 1, name: \"wide\", keyspace: Keyspace(name: \"wide\", replication: Simple(1)),
         entities: [Entity(name: \"Item\", key: [\"id\"], attributes: [Attribute(name: \"id\", type: \"uuid\"), {attrs}], count: Some(1000))],
         queries: [{queries}], workflow: Workflow(entry: [{entry}]))"
    );
    super::load::from_str(&text).expect("generated text of a fixed shape loads")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_projects_are_valid_and_deterministic() {
        for seed in 0..20 {
            let p = project(30, 60, seed);
            let problems = crate::model::load::validate(&p);
            assert!(problems.is_empty(), "seed {seed}: {problems:?}");
            assert_eq!(p, project(30, 60, seed));
        }
    }
}
