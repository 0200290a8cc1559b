//! A plan's SELECT statement, written from the key shape and request the
//! derivation worked out; clones share the text.

use super::types::{Access, KeyShape, Request, Select};
use crate::model::name::Name;
use crate::model::naming::{push_quoted, quote};
use crate::model::{Dir, RangeOp};

impl Select {
    /// The SELECT for `req` on the table of `shape`, answered as `access`
    /// with `order_by`.
    pub(crate) fn new(
        keyspace: &str,
        table: &str,
        shape: &KeyShape,
        req: &Request,
        order_by: &[(Name, Dir)],
        access: &Access,
    ) -> Select {
        Select::from_text(write(keyspace, table, shape, req, order_by, access))
    }
}

/// The statement's text: conditions in key order, then the range, ORDER BY,
/// LIMIT and ALLOW FILTERING as the access needs.
fn write(
    keyspace: &str,
    table: &str,
    shape: &KeyShape,
    req: &Request,
    order_by: &[(Name, Dir)],
    access: &Access,
) -> String {
    let mut s = String::with_capacity(128);
    s.push_str("SELECT ");
    if req.returns.is_empty() {
        s.push('*');
    }
    for (i, c) in req.returns.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        if let Some((_, expr)) = req.computed.iter().find(|(n, _)| n == c) {
            s.push_str(expr);
            s.push_str(" AS ");
        }
        push_quoted(&mut s, c);
    }
    s.push_str(" FROM ");
    push_quoted(&mut s, keyspace);
    s.push('.');
    push_quoted(&mut s, table);
    // Conditions in key order: partition columns (searched or
    // computed), then searched clustering columns, then anything else
    // searched.
    let mut first = true;
    let mut cond = |s: &mut String| {
        s.push_str(if first { " WHERE " } else { " AND " });
        first = false;
    };
    let mut done: Vec<&Name> = Vec::new();
    let keys = shape
        .partition
        .iter()
        .chain(shape.clustering.iter().map(|(c, _)| c));
    for c in keys {
        let computed = shape.computed.contains(c) && shape.partition.contains(c);
        if req.eq.contains(c) || computed {
            cond(&mut s);
            push_equality(&mut s, c, req);
            done.push(c);
        }
    }
    for c in &req.eq {
        if !done.contains(&c) {
            cond(&mut s);
            push_equality(&mut s, c, req);
        }
    }
    if let Some((c, op)) = &req.range {
        cond(&mut s);
        if req.range_timeuuid {
            s.push_str(&timeuuid_range_clause(&quote(c), *op));
        } else {
            s.push_str(&range_clause(&quote(c), *op));
        }
    }
    if !order_by.is_empty() && !matches!(access, Access::Impossible(_)) {
        s.push_str(" ORDER BY ");
        for (i, (c, d)) in order_by.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            push_quoted(&mut s, c);
            s.push(' ');
            s.push_str(d.cql());
        }
    }
    if let Some(n) = req.limit {
        s.push_str(" LIMIT ");
        s.push_str(&n.to_string());
    }
    if matches!(access, Access::Filtering(_)) {
        s.push_str(" ALLOW FILTERING");
    }
    s.push(';');
    s
}

/// `col = ?`, or `col = 'literal'` for a constant the query states.
fn push_equality(s: &mut String, col: &Name, req: &Request) {
    push_quoted(s, col);
    s.push_str(" = ");
    match req.literals.iter().find(|(c, _)| c == col) {
        Some((_, literal)) => s.push_str(literal),
        None => s.push('?'),
    }
}

/// A range over the times a timeuuid column encodes, exactly: every
/// timeuuid of a millisecond lies between `minTimeuuid` and `maxTimeuuid`
/// of it, so an inclusive bound takes the far end of its millisecond and
/// an exclusive one the near end.
pub(crate) fn timeuuid_range_clause(col: &str, op: RangeOp) -> String {
    match op {
        RangeOp::Between => format!("{col} >= minTimeuuid(?) AND {col} <= maxTimeuuid(?)"),
        RangeOp::Lt => format!("{col} < minTimeuuid(?)"),
        RangeOp::Le => format!("{col} <= maxTimeuuid(?)"),
        RangeOp::Gt => format!("{col} > maxTimeuuid(?)"),
        RangeOp::Ge => format!("{col} >= minTimeuuid(?)"),
    }
}

/// The SELECT's range operator text.
pub(crate) fn range_clause(col: &str, op: RangeOp) -> String {
    match op {
        RangeOp::Between => format!("{col} >= ? AND {col} <= ?"),
        RangeOp::Lt => format!("{col} < ?"),
        RangeOp::Le => format!("{col} <= ?"),
        RangeOp::Gt => format!("{col} > ?"),
        RangeOp::Ge => format!("{col} >= ?"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn statement(returns: &[&str], access: &Access) -> Select {
        let shape = KeyShape {
            partition: vec!["hotel_id".into()],
            clustering: vec![("night".into(), Dir::Desc)],
            indexes: vec![],
            columns: vec!["hotel_id".into(), "night".into(), "rate".into()],
            computed: vec![],
        };
        let req = Request {
            eq: vec!["hotel_id".into()],
            range: Some(("night".into(), crate::model::RangeOp::Between)),
            order: vec![],
            returns: returns.iter().map(|&r| Name::from(r)).collect(),
            limit: Some(5),
            ..Request::default()
        };
        Select::new(
            "ks",
            "rates_by_hotel",
            &shape,
            &req,
            &[("night".into(), Dir::Desc)],
            access,
        )
    }

    /// Clones share the text; an empty statement reads as empty text.
    #[test]
    fn the_text_is_written_and_shared() {
        let s = statement(&["rate", "select"], &Access::Direct);
        let clone = s.clone();
        assert_eq!(
            s.as_str(),
            "SELECT rate, \"select\" FROM ks.rates_by_hotel WHERE hotel_id = ? \
             AND night >= ? AND night <= ? ORDER BY night DESC LIMIT 5;"
        );
        assert!(std::ptr::eq(s.as_str(), clone.as_str()), "one text");
        assert_eq!(Select::default().as_str(), "");
        assert!(Select::default().is_empty());
        assert_eq!(
            serde_json::to_string(&s).expect("serializes"),
            serde_json::to_string(s.as_str()).expect("serializes")
        );
    }

    /// Filtering adds ALLOW FILTERING; an impossible access drops the
    /// ORDER BY; equality is by the text.
    #[test]
    fn access_shapes_the_text_and_equality_reads_it() {
        let filtering = statement(&[], &Access::Filtering("x".into()));
        assert!(filtering.starts_with("SELECT * FROM"));
        assert!(
            filtering.ends_with(" LIMIT 5 ALLOW FILTERING;"),
            "{filtering}"
        );
        let impossible = statement(&[], &Access::Impossible("x".into()));
        assert!(!impossible.contains("ORDER BY"), "{impossible}");
        assert_eq!(
            statement(&["rate"], &Access::Direct),
            statement(&["rate"], &Access::Direct)
        );
        assert_ne!(
            statement(&["rate"], &Access::Direct),
            statement(&[], &Access::Direct)
        );
    }
}
