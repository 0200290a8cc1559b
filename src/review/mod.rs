//! The review of a derived model: findings by rule (`diagnose`), each
//! with the refinement that would fix it, and the alternative keys of a
//! table (`alternatives`). Applying a refinement is an edit
//! (`edit::refine`).
pub mod alternatives;
pub mod diagnose;
