//! The workbench state: the project, its analysis, the undo history, what is
//! selected and focused, and the popups. Everything the views draw is here,
//! so drawing stays a pure function of it.

use super::config::Dirs;
pub use super::focus::Focus;
use super::keymap::Keymap;
use super::popup::Popup;
use super::theme::Theme;
use crate::analysis::incremental::IncrementalAnalysis;
use crate::analysis::Analysis;
use crate::derive::LogicalModel;
use crate::edit::history::{Change, History, Step};
use crate::edit::{self, Edit, Item, Sections};
use crate::lifecycle::diff::{diff, summary, TableChange};
use crate::model::resolve::AttrId;
use crate::model::{Entity, Project, Query, Relationship, Shared, Target, Workflow};
use crate::tui::analysis_worker::{self, AnalysisWorker};
use ratatui::layout::Rect;
use ratatui::text::Line;
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

/// How long changed tables stay highlighted after an edit.
pub(crate) const CHANGE_FLASH_MS: u128 = 1500;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BottomView {
    Diagnostics,
    Cql,
    Select,
    Notes,
    /// What the design costs under the workload (`view/cost.rs`).
    Cost,
}

impl BottomView {
    pub const ALL: [BottomView; 4] = [
        BottomView::Diagnostics,
        BottomView::Cql,
        BottomView::Select,
        BottomView::Notes,
    ];

    pub fn title(self) -> &'static str {
        match self {
            BottomView::Diagnostics => "Diagnostics",
            BottomView::Cql => "CQL",
            BottomView::Select => "SELECT",
            BottomView::Notes => "Notes",
            BottomView::Cost => "Cost",
        }
    }

    /// The views the tab strip shows: the cost view once the project
    /// states a workload (or while it is open).
    pub fn shown(app: &App) -> Vec<BottomView> {
        let mut v = BottomView::ALL.to_vec();
        if app.view.bottom == BottomView::Cost
            || crate::model::workload::states_workload(&app.project)
        {
            v.push(BottomView::Cost);
        }
        v
    }
}

/// One line of a pane's list. Headings and continuation lines (summaries,
/// estimates, box bottoms) are not selectable.
#[derive(Clone, Debug, PartialEq)]
pub enum Row {
    EntitiesHeading,
    RelationshipsHeading,
    Entity(usize),
    Attribute(usize, usize),
    Relationship(usize),
    RelAttribute(usize, usize),
    QueriesHeading,
    Query(usize),
    QuerySummary(usize),
    TreeHeading,
    /// An entry point of the workflow tree.
    TreeQuery {
        query: usize,
    },
    TreeTransition {
        transition: usize,
        place: TreePlace,
    },
    Table(usize),
    Column(usize, usize),
    Estimate(usize),
    TableEnd(usize),
    Empty(EmptyHint),
}

/// Where a transition sits in the workflow tree, drawn as branch lines:
/// one bit per level says whether the branch there is the last of its
/// siblings (kept as bits, not drawn text: a large workflow has thousands
/// of rows). [`TreePlace::UNREACHED`] marks a transition no entry point
/// leads to; its source's id is drawn instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreePlace(u64);

impl TreePlace {
    /// Deeper levels are not drawn (a cycle-free workflow this deep is
    /// not read as a tree anyway).
    pub const MAX_DEPTH: usize = 32;
    pub const UNREACHED: TreePlace = TreePlace(u64::MAX);
    /// The low bits count the levels; the flags follow.
    const COUNT_BITS: u32 = 6;

    /// The place of a branch whose levels, outermost first, are or are not
    /// the last of their siblings (at most `MAX_DEPTH + 1` levels).
    pub fn branch(lasts: &[bool]) -> TreePlace {
        let levels = lasts.len().min(Self::MAX_DEPTH + 1);
        let flags = lasts[..levels]
            .iter()
            .enumerate()
            .fold(0u64, |bits, (i, &last)| bits | (u64::from(last) << i));
        TreePlace(levels as u64 | flags << Self::COUNT_BITS)
    }

    /// The branch lines before the transition's target: `from` (its
    /// source's id, terminal-safe) for an unreached transition.
    pub fn prefix(self, from: &str) -> String {
        if self == Self::UNREACHED {
            return format!("{} ", crate::model::terminal_text::for_terminal(from));
        }
        let levels = (self.0 & ((1 << Self::COUNT_BITS) - 1)) as usize;
        let last = |i: usize| self.0 >> (Self::COUNT_BITS as usize + i) & 1 == 1;
        let mut out = String::with_capacity(levels * 6);
        for i in 0..levels.saturating_sub(1) {
            out.push_str(if last(i) { "  " } else { "│ " });
        }
        if levels > 0 {
            out.push_str(if last(levels - 1) { "└─" } else { "├─" });
        }
        out
    }
}

/// What an empty list says to do; drawn with the live key bindings, so a
/// rebinding changes the hint too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmptyHint {
    Entities,
    Queries,
    Tables,
    /// A large project's analysis is still running.
    Deriving,
}

impl Row {
    pub fn selectable(&self) -> bool {
        !matches!(
            self,
            Row::QuerySummary(_) | Row::TableEnd(_) | Row::Empty(_) | Row::TreeHeading
        )
    }

    pub fn item(&self) -> Option<Item> {
        Some(match self {
            Row::Entity(e) => Item::Entity(*e),
            Row::Attribute(e, a) => Item::Attribute(*e, *a),
            Row::Relationship(r) => Item::Relationship(*r),
            Row::RelAttribute(r, a) => Item::RelAttribute(*r, *a),
            Row::Query(q) | Row::QuerySummary(q) | Row::TreeQuery { query: q, .. } => {
                Item::Query(*q)
            }
            Row::TreeTransition { transition, .. } => Item::Transition(*transition),
            Row::Table(t) | Row::Estimate(t) | Row::TableEnd(t) => Item::Table(*t),
            Row::Column(t, c) => Item::Column(*t, *c),
            _ => return None,
        })
    }
}

/// Selection and scroll of one list pane.
#[derive(Debug, Default)]
pub struct PaneState {
    pub selected: usize,
    /// First visible row; adjusted while drawing to keep the selection in view.
    pub offset: Cell<usize>,
    /// The selection when last drawn: which way it moved since.
    pub drawn_selected: Cell<usize>,
    pub filter: String,
}

pub use crate::edit::links::{links, Links};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusKind {
    Info,
    Change,
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Status {
    pub text: String,
    pub kind: StatusKind,
}

/// Rectangles of the last frame, for mouse hit-testing.
#[derive(Clone, Debug, Default)]
pub struct Hits {
    /// Inner list area of each pane (by `Focus::index`), when shown.
    pub panes: [Option<Rect>; 4],
    /// Bottom-pane tab labels.
    pub tabs: Vec<(Rect, BottomView)>,
    /// Narrow-mode pane tabs.
    pub pane_tabs: Vec<(Rect, Focus)>,
}

/// The file on disk as last read or written, to notice outside changes.
#[derive(Clone, Debug, PartialEq)]
pub struct DiskStamp {
    pub modified: Option<SystemTime>,
    pub hash: u64,
}

/// What the bottom pane's text depends on: analysis generation, view,
/// selected table, keyspace-wide CQL, selected item.
pub type CacheKey = (u64, BottomView, Option<usize>, bool, Option<Item>);

/// Cached bottom-pane text: rebuilt only when the analysis or the target
/// changes, and highlighted only when the text itself changed.
#[derive(Default)]
pub struct TextCache {
    pub key: Option<CacheKey>,
    pub text_hash: u64,
    pub lines: Vec<Line<'static>>,
}

/// The workbench state, grouped by role. The project, its analysis and
/// What the what-if worker works out for the workbench, each from values
/// it was handed (a project, the model of one).
pub enum WhatIf {
    /// The analysis after a previewed refinement.
    Preview(Analysis),
    /// A split's edit, worked out over the project at this history state.
    Split(Edit, u64),
    /// The alternatives matrix of a table's rows.
    Alternatives(crate::review::alternatives::Matrix),
}

/// what the user is doing (focus, popups, status, quitting) are used
/// everywhere and stay at the top; the rest sits in one group per role.
pub struct App {
    /// The document: the project being edited.
    pub project: Project,
    pub path: Option<PathBuf>,
    /// Whether the project differs from the saved state.
    pub dirty: bool,
    /// Undo history and save state of the document.
    pub versions: Versions,
    /// The derived analysis of `project`.
    pub analysis: Analysis,
    /// Analyses of large projects run here; while one is pending,
    /// `analysis` is empty and the frame says "deriving…".
    pub worker: AnalysisWorker,
    /// What-ifs worked out off the input thread on large projects: the
    /// analysis a previewed refinement would make, a split, the
    /// alternatives matrix (each shown when it arrives).
    pub what_if: AnalysisWorker<WhatIf>,
    /// The history state a split waiting for the what-if worker was asked
    /// at: it is made only if the project is still that one.
    pub splitting: Option<u64>,
    /// What the analysis reuses after an edit; every analysis after an
    /// edit comes from it, so it recognises `analysis` as its last.
    pub incremental: IncrementalAnalysis,
    /// What follows from the analysis and the selection.
    pub derived: Derived,
    pub focus: Focus,
    pub popups: Vec<Popup>,
    pub status: Option<Status>,
    pub quit: bool,
    /// Selection, folding and scrolling of the panes.
    pub view: ViewState,
    /// Keys, colours, directories and the mouse, from the config.
    pub settings: Settings,
    /// What the last frame drew, for the mouse and the bottom pane's text.
    pub frame: FrameCache,
    /// When the recovery copy is written.
    pub recovery: Recovery,
}

/// The document's history: which state is current, which was saved, what
/// the file on disk looked like.
pub struct Versions {
    /// Which state of the project is current: every edit gets a new number,
    /// undo and redo bring the old numbers back, so being unsaved is a
    /// comparison of two numbers rather than of two projects.
    pub state: u64,
    /// The last state number handed out.
    pub next_state: u64,
    /// The state last saved or loaded; `None` when it never was.
    pub saved: Option<u64>,
    pub disk: Option<DiskStamp>,
    /// Undo and redo: each step keeps the parts of the project it replaced.
    pub history: History,
    /// The current state passed validation as the result of an edit, so the
    /// next edit need only check what it changed. Anything else that
    /// changes the project (undo, redo, replacing it) clears it.
    pub validated: bool,
}

/// What follows from the analysis: its generation, the links of the
/// selection, and the tables the latest edit changed.
pub struct Derived {
    /// Bumped on every re-derivation; caches key on it.
    pub generation: u64,
    pub links: Links,
    pub changed: HashSet<String>,
    pub changed_at: Option<Instant>,
}

/// What the panes show: selection, filters, folding, the bottom view.
pub struct ViewState {
    /// The list pane focused last, so the bottom pane follows its selection.
    pub last_list: Focus,
    pub bottom: BottomView,
    /// CQL view shows the whole keyspace rather than the selected table.
    pub cql_all: bool,
    pub panes: [PaneState; 4],
    pub rows: [Vec<Row>; 3],
    pub collapsed_entities: HashSet<String>,
    pub collapsed_tables: HashSet<String>,
    /// The bottom pane has no rows of its own: just a scroll position.
    pub bottom_scroll: usize,
    /// What `rows` were built from.
    built_from: RowInputs,
}

/// What each list pane's rows were last built from. A pane whose inputs
/// are still the same parts of the project (shared, not just equal: see
/// [`Shared`]) or the same derived model keeps its rows, so an edit of
/// the workflow does not rebuild the entity and table lists of a large
/// project.
#[derive(Default)]
struct RowInputs {
    concept: Option<ConceptInputs>,
    workflow: Option<WorkflowInputs>,
    tables: Option<TableInputs>,
}

struct ConceptInputs {
    entities: Shared<Vec<Entity>>,
    relationships: Shared<Vec<Relationship>>,
    filter: String,
    collapsed: HashSet<String>,
}

struct WorkflowInputs {
    queries: Shared<Vec<Shared<Query>>>,
    workflow: Shared<Workflow>,
    filter: String,
}

struct TableInputs {
    model: Arc<LogicalModel>,
    deriving: bool,
    filter: String,
    collapsed: HashSet<String>,
}

/// The user's settings.
pub struct Settings {
    pub keymap: Keymap,
    pub theme: Theme,
    pub dirs: Dirs,
    pub mouse: bool,
}

/// Kept from drawing: hit areas and the bottom pane's text.
#[derive(Default)]
pub struct FrameCache {
    pub hits: RefCell<Hits>,
    pub text: RefCell<TextCache>,
}

/// The recovery copy's schedule.
#[derive(Default)]
pub struct Recovery {
    /// A recovery copy should be written at the next opportunity.
    pub due: bool,
    pub last: Option<Instant>,
}

impl App {
    /// The workbench over a project analysed at once.
    pub fn new(project: Project, path: Option<PathBuf>, dirs: Dirs) -> App {
        let mut incremental = IncrementalAnalysis::new();
        let analysis = incremental.analyze(&project);
        App::with_analysis(project, path, dirs, analysis, incremental)
    }

    /// The workbench over an opened project: a large one is analysed on the
    /// worker, so the first frame comes before its analysis ("deriving…");
    /// a small one at once, as [`App::new`].
    pub fn open(project: Project, path: Option<PathBuf>, dirs: Dirs) -> App {
        if !analysis_worker::in_background(&project) {
            return App::new(project, path, dirs);
        }
        // The workbench keeps a copy and the worker takes the loaded
        // project: a copy has no spare capacity from parsing (megabytes at
        // 10,000 queries), and the worker drops the loaded one.
        let copy = project.clone();
        let mut app = App::with_analysis(
            copy,
            path,
            dirs,
            Analysis::default(),
            IncrementalAnalysis::new(),
        );
        app.request_analysis(project);
        app
    }

    fn with_analysis(
        project: Project,
        path: Option<PathBuf>,
        dirs: Dirs,
        analysis: Analysis,
        incremental: IncrementalAnalysis,
    ) -> App {
        let mut app = App {
            project,
            path,
            dirty: false,
            versions: Versions {
                state: 0,
                next_state: 0,
                saved: Some(0),
                disk: None,
                history: History::default(),
                validated: false,
            },
            analysis,
            derived: Derived {
                generation: 1,
                links: Links::default(),
                changed: HashSet::new(),
                changed_at: None,
            },
            focus: Focus::Workflow,
            popups: vec![],
            status: None,
            quit: false,
            view: ViewState {
                last_list: Focus::Workflow,
                bottom: BottomView::Diagnostics,
                cql_all: false,
                panes: Default::default(),
                rows: Default::default(),
                collapsed_entities: HashSet::new(),
                collapsed_tables: HashSet::new(),
                bottom_scroll: 0,
                built_from: RowInputs::default(),
            },
            settings: Settings {
                keymap: Keymap::default(),
                theme: Theme::default(),
                dirs,
                mouse: true,
            },
            frame: FrameCache::default(),
            recovery: Recovery::default(),
            worker: AnalysisWorker::default(),
            what_if: AnalysisWorker::default(),
            splitting: None,
            incremental,
        };
        app.rebuild_rows();
        app.select_first_selectable(Focus::Workflow);
        // An empty project starts where the first thing is added: the
        // Conceptual pane ("a adds an entity"), not the empty workflow.
        if app.project.entities.is_empty() && app.project.relationships.is_empty() {
            app.set_focus(Focus::Concept);
        } else {
            app.refresh_links();
        }
        app
    }

    pub fn info(&mut self, text: impl Into<String>) {
        self.status = Some(Status {
            text: text.into(),
            kind: StatusKind::Info,
        });
    }

    pub fn error(&mut self, text: impl Into<String>) {
        self.status = Some(Status {
            text: text.into(),
            kind: StatusKind::Error,
        });
    }

    /// The file name shown in the status bar.
    pub(crate) fn file_label(&self) -> String {
        match &self.path {
            Some(p) => p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            None => "[unsaved copy]".to_string(),
        }
    }

    /// Applies an edit to a copy of the project; keeps it only when the core
    /// accepts the result, otherwise says why. Re-derives at once and reports
    /// which tables changed.
    pub fn apply(
        &mut self,
        what: &str,
        f: impl FnOnce(&mut Project) -> Result<(), String>,
    ) -> bool {
        self.apply_edit(what, true, f)
    }

    /// [`App::apply`] for an edit that says whether it can leave the project
    /// as it was: only then are the two projects compared.
    pub fn apply_edit(
        &mut self,
        what: &str,
        may_be_noop: bool,
        f: impl FnOnce(&mut Project) -> Result<(), String>,
    ) -> bool {
        let mut next = self.project.clone();
        if let Err(e) = f(&mut next) {
            self.error(format!("refused: {} — {e}", not_done(what)));
            return false;
        }
        next.prune_decisions();
        let admitted = if self.versions.validated {
            edit::validated_after(&self.project, &next)
        } else {
            edit::validated(&next)
        };
        if let Err(refusal) = admitted {
            self.error(format!("refused: {} — {refusal}", not_done(what)));
            return false;
        }
        if may_be_noop && next == self.project {
            self.info(format!("{what}: nothing changed"));
            return false;
        }
        // While an analysis is pending there is none of the project before
        // the edit to compare with: the edit is admitted by validation and
        // its analysis queued (see `queue_after_change`).
        let analysis = if self.is_deriving() {
            None
        } else {
            let analysis = self.incremental.reanalyze(&next, &self.analysis);
            if let Err(refusal) = edit::keeps_cql_valid(&self.analysis, &analysis) {
                self.error(format!(
                    "refused: {} — {}",
                    not_done(what),
                    crate::model::naming::for_terminal(&refusal.to_string())
                ));
                return false;
            }
            Some(analysis)
        };
        // The whole change, decisions pruned included, as one step.
        let (redo, undo) = Sections::both_ways(&self.project, &next);
        let change = Change {
            redo: Edit::Restore(Box::new(redo)),
            undo: Edit::Restore(Box::new(undo)),
        };
        self.project = next;
        self.versions.validated = true;
        self.versions.next_state += 1;
        self.versions.history.record(Step {
            changes: vec![change],
            before: self.versions.state,
            after: self.versions.next_state,
        });
        self.versions.state = self.versions.next_state;
        match analysis {
            Some(analysis) => self.after_change_with(what, analysis),
            None => self.queue_after_change(what),
        }
        true
    }

    /// Re-derives after the project changed and tells what the tables did.
    fn after_change(&mut self, what: &str) {
        if self.is_deriving() {
            self.queue_after_change(what);
            return;
        }
        let analysis = self.incremental.reanalyze(&self.project, &self.analysis);
        self.after_change_with(what, analysis);
    }

    /// [`App::after_change`] while an analysis is pending: the running one
    /// is stale now, the changed project's analysis is queued instead.
    fn queue_after_change(&mut self, what: &str) {
        self.dirty = self.versions.saved != Some(self.versions.state);
        self.recovery.due = true;
        self.derived.changed.clear();
        self.status = Some(Status {
            text: what.to_string(),
            kind: StatusKind::Change,
        });
        self.rebuild_rows();
        self.clamp_rows();
        self.refresh_links();
        self.derive_in_background();
    }

    /// Whether the shown analysis is a placeholder while the project's is
    /// computed on the worker.
    pub fn is_deriving(&self) -> bool {
        self.worker.is_pending()
    }

    /// Hands the current project to the worker; the analysis stays empty
    /// until [`App::receive_analysis`] installs the result. Without a
    /// thread the analysis is done here.
    fn derive_in_background(&mut self) {
        self.request_analysis(self.project.clone());
    }

    /// [`App::derive_in_background`] with the copy of the project made.
    fn request_analysis(&mut self, project: Project) {
        self.derived.generation += 1;
        if self.worker.request(project).is_none() {
            let analysis = self.incremental.analyze(&self.project);
            self.install(analysis);
        }
    }

    /// Installs the pending analysis if the worker has finished it (the run
    /// loop asks before every frame). Says whether it did.
    pub fn receive_analysis(&mut self) -> bool {
        match self.worker.take_ready() {
            Some((analysis, incremental)) => {
                self.incremental = incremental;
                self.install(analysis);
                true
            }
            None => false,
        }
    }

    /// `work` done on the what-if worker when the project is large (its
    /// result arrives through [`App::receive_what_if`]; `None` here), or
    /// here on a small one, where it takes less than a frame.
    fn what_if_or_now(&mut self, work: impl FnOnce() -> WhatIf + Send + 'static) -> Option<WhatIf> {
        self.splitting = None;
        if !analysis_worker::in_background(&self.project) {
            return Some(work());
        }
        match self.what_if.request_work(work) {
            Ok(_) => None,
            Err(work) => Some(work()),
        }
    }

    /// Opens the preview of a refinement. The change is read off the shown
    /// analysis; the analysis after it is made by [`App::what_if_or_now`]
    /// (the popup says it is coming until it arrives).
    pub fn preview_refinement(&mut self, r: &crate::review::diagnose::Refinement) {
        use crate::edit::refine;
        use crate::tui::popup::RefinePreview;
        if self.is_deriving() {
            return self.error("deriving…: refinements are previewed once the analysis is done");
        }
        let popup = match refine::change(&self.project, &self.analysis.model, r) {
            Err(e) => RefinePreview::new(refine::refused(&self.analysis, r, e), None),
            Ok(next) => {
                let project = next.clone();
                match self
                    .what_if_or_now(move || WhatIf::Preview(crate::analysis::analyze(&project)))
                {
                    Some(WhatIf::Preview(after)) => {
                        let preview = refine::compare(&self.project, &self.analysis, r, &after);
                        RefinePreview::new(preview, Some(next))
                    }
                    _ => RefinePreview::pending(refine::unfinished(&self.analysis, r), next),
                }
            }
        };
        self.popups.push(Popup::Preview(Box::new(popup)));
    }

    /// Gives `queries` tables of their own. Which of them must be kept
    /// apart is read off the model without their merges: the shown one
    /// when none was merged, else a what-if's.
    pub fn split(&mut self, queries: Vec<String>) {
        let Some(unmerged) = edit::unmerged(&self.project, &queries) else {
            let e = edit::split(queries, &self.analysis.model);
            return self.make_split(&e);
        };
        let state = self.versions.state;
        let work = move || {
            WhatIf::Split(
                edit::split(queries, &crate::derive::derive(&unmerged)),
                state,
            )
        };
        if let Some(done) = self.what_if_or_now(work) {
            self.show_what_if(done);
        } else {
            self.splitting = Some(state);
            self.info("splitting: working out which tables stay shared…");
        }
    }

    /// Makes a split's edit as any other edit is made.
    fn make_split(&mut self, e: &Edit) {
        let label = crate::tui::labels::edit_label(self, e);
        self.apply_edit(&label, e.may_be_noop(), |p| edit::apply_edit(p, e));
    }

    /// Opens the alternatives matrix of the table of `query` (its origin),
    /// worked out by [`App::what_if_or_now`] (the popup says it is coming
    /// until it arrives).
    pub fn alternatives(&mut self, query: String, table: &str) {
        use crate::tui::popup::Alternatives;
        let project = self.project.clone();
        let work =
            move || WhatIf::Alternatives(crate::review::alternatives::matrix(&project, &query));
        let popup = match self.what_if_or_now(work) {
            Some(WhatIf::Alternatives(m)) => Alternatives::new(m),
            _ => Alternatives::pending(table),
        };
        self.popups.push(Popup::Alternatives(popup));
    }

    /// Shows what the what-if worker worked out when it has arrived; drops
    /// the request when nothing waits for it any more (its popup closed).
    /// Says whether the frame changed.
    pub fn receive_what_if(&mut self) -> bool {
        if !self.what_if.is_pending() {
            return false;
        }
        if !self.what_if_waits() {
            self.what_if.cancel();
            return false;
        }
        match self.what_if.take_ready() {
            Some(done) => self.show_what_if(done),
            None => false,
        }
    }

    /// [`App::receive_what_if`], waiting up to `timeout` for the result
    /// (tests; the run loop never blocks on it).
    pub fn wait_for_what_if(&mut self, timeout: std::time::Duration) -> bool {
        if !self.what_if_waits() {
            return false;
        }
        match self.what_if.wait(timeout) {
            Some(done) => self.show_what_if(done),
            None => false,
        }
    }

    /// Whether something waits for the what-if worker: a split, or the
    /// top popup (a preview or the alternatives) still empty.
    fn what_if_waits(&self) -> bool {
        self.splitting.is_some()
            || match self.popups.last() {
                Some(Popup::Preview(p)) => p.pending,
                Some(Popup::Alternatives(a)) => a.pending,
                _ => false,
            }
    }

    /// Shows a what-if's result: completes the waiting popup, or makes the
    /// split if the project is still the one it was worked out over.
    fn show_what_if(&mut self, done: WhatIf) -> bool {
        match (done, self.popups.last_mut()) {
            (WhatIf::Split(e, state), _) => {
                self.splitting = None;
                if state == self.versions.state {
                    self.make_split(&e);
                } else {
                    self.info("split dropped: the project changed while it was worked out");
                }
                true
            }
            (WhatIf::Preview(after), Some(Popup::Preview(p))) if p.pending => {
                let r = p.preview.refinement.clone();
                p.preview = crate::edit::refine::compare(&self.project, &self.analysis, &r, &after);
                p.pending = false;
                true
            }
            (WhatIf::Alternatives(m), Some(Popup::Alternatives(a))) if a.pending => {
                *a = crate::tui::popup::Alternatives::new(m);
                true
            }
            _ => false,
        }
    }

    /// Whether a what-if (a preview's analysis, a split, the
    /// alternatives) is being worked out.
    pub fn is_previewing(&self) -> bool {
        self.what_if.is_pending()
    }

    /// [`App::receive_analysis`], waiting up to `timeout` for the result
    /// (tests and measurements; the run loop never blocks on it).
    pub fn wait_for_analysis(&mut self, timeout: std::time::Duration) -> bool {
        match self.worker.wait(timeout) {
            Some((analysis, incremental)) => {
                self.incremental = incremental;
                self.install(analysis);
                true
            }
            None => false,
        }
    }

    /// Shows a finished analysis of the current project, keeping the
    /// selection on the same item.
    fn install(&mut self, analysis: Analysis) {
        let selected = self.selected_item();
        self.analysis = analysis;
        self.derived.generation += 1;
        self.rebuild_rows();
        if let Some(item) = selected {
            self.reselect(item);
        }
        self.clamp_rows();
        self.refresh_links();
    }

    /// [`App::after_change`] with the analysis of the new project done.
    fn after_change_with(&mut self, what: &str, analysis: Analysis) {
        let selected = self.selected_item();
        // A shared model (an edit of the workflow alone) changed nothing.
        let changes = if std::sync::Arc::ptr_eq(&self.analysis.model, &analysis.model) {
            Vec::new()
        } else {
            diff(&self.analysis.model, &analysis.model)
        };
        self.analysis = analysis;
        self.derived.generation += 1;
        self.dirty = self.versions.saved != Some(self.versions.state);
        self.recovery.due = true;
        self.derived.changed = changes
            .iter()
            .filter_map(TableChange::new_name)
            .map(str::to_string)
            .collect();
        self.derived.changed_at = Some(Instant::now());
        let text = if changes.is_empty() {
            format!("{what} — tables unchanged")
        } else {
            format!("{what} — {}", summary(&changes, 4))
        };
        self.status = Some(Status {
            text,
            kind: StatusKind::Change,
        });
        self.rebuild_rows();
        if let Some(item) = selected {
            self.reselect(item);
        }
        self.clamp_rows();
        self.refresh_links();
    }

    pub fn undo(&mut self) {
        self.versions.validated = false;
        match self.versions.history.undo(&mut self.project) {
            Ok(Some(state)) => {
                self.versions.state = state;
                self.after_change("undo");
            }
            Ok(None) => self.info("nothing to undo"),
            Err(e) => self.error(format!("undo: {e}")),
        }
    }

    pub fn redo(&mut self) {
        self.versions.validated = false;
        match self.versions.history.redo(&mut self.project) {
            Ok(Some(state)) => {
                self.versions.state = state;
                self.after_change("redo");
            }
            Ok(None) => self.info("nothing to redo"),
            Err(e) => self.error(format!("redo: {e}")),
        }
    }

    /// Replaces the whole project (`:e FILE`, recovery): history starts over.
    pub(crate) fn replace_project(&mut self, project: Project, path: Option<PathBuf>, dirty: bool) {
        // A pending analysis belongs to the project being replaced.
        self.worker.cancel();
        let background = analysis_worker::in_background(&project);
        self.analysis = if background {
            Analysis::default()
        } else {
            self.incremental.analyze(&project)
        };
        self.derived.generation += 1;
        self.versions.next_state += 1;
        self.versions.state = self.versions.next_state;
        self.versions.saved = (!dirty).then_some(self.versions.state);
        self.project = project;
        self.versions.validated = false;
        self.path = path;
        self.dirty = dirty;
        self.versions.history.clear();
        self.derived.changed.clear();
        for p in &mut self.view.panes {
            p.selected = 0;
            p.offset.set(0);
            p.filter.clear();
        }
        self.rebuild_rows();
        for f in [Focus::Concept, Focus::Workflow, Focus::Tables] {
            self.select_first_selectable(f);
        }
        self.refresh_links();
        if background {
            self.derive_in_background();
        }
    }

    pub(crate) fn mark_saved(&mut self) {
        self.versions.saved = Some(self.versions.state);
        self.dirty = false;
    }

    // ---- rows -------------------------------------------------------------

    /// Rebuilds the rows of each list pane whose inputs changed.
    pub(crate) fn rebuild_rows(&mut self) {
        // Compared in place; the inputs are copied only for a pane that is
        // rebuilt (a filter keystroke rebuilds one pane).
        let (p, v) = (&self.project, &self.view);
        let concept_kept = v.built_from.concept.as_ref().is_some_and(|b| {
            Shared::same(&b.entities, &p.entities)
                && Shared::same(&b.relationships, &p.relationships)
                && b.filter == v.panes[0].filter
                && b.collapsed == v.collapsed_entities
        });
        let workflow_kept = v.built_from.workflow.as_ref().is_some_and(|b| {
            Shared::same(&b.queries, &p.queries)
                && Shared::same(&b.workflow, &p.workflow)
                && b.filter == v.panes[1].filter
        });
        let deriving = self.is_deriving();
        let tables_kept = v.built_from.tables.as_ref().is_some_and(|b| {
            Arc::ptr_eq(&b.model, &self.analysis.model)
                && b.deriving == deriving
                && b.filter == v.panes[2].filter
                && b.collapsed == v.collapsed_tables
        });
        if !concept_kept {
            self.view.rows[0] = self.concept_rows();
            self.view.built_from.concept = Some(ConceptInputs {
                entities: self.project.entities.clone(),
                relationships: self.project.relationships.clone(),
                filter: self.view.panes[0].filter.clone(),
                collapsed: self.view.collapsed_entities.clone(),
            });
        }
        if !workflow_kept {
            self.view.rows[1] = self.workflow_rows();
            self.view.built_from.workflow = Some(WorkflowInputs {
                queries: self.project.queries.clone(),
                workflow: self.project.workflow.clone(),
                filter: self.view.panes[1].filter.clone(),
            });
        }
        if !tables_kept {
            self.view.rows[2] = self.table_rows();
            self.view.built_from.tables = Some(TableInputs {
                model: Arc::clone(&self.analysis.model),
                deriving,
                filter: self.view.panes[2].filter.clone(),
                collapsed: self.view.collapsed_tables.clone(),
            });
        }
    }

    fn matches(filter: &str, text: &str) -> bool {
        filter.is_empty() || text.to_lowercase().contains(&filter.to_lowercase())
    }

    fn concept_rows(&self) -> Vec<Row> {
        let f = &self.view.panes[0].filter;
        let mut rows = vec![Row::EntitiesHeading];
        for (i, e) in self.project.entities.iter().enumerate() {
            let own = Self::matches(f, &e.name);
            let attrs: Vec<usize> = (0..e.attributes.len())
                .filter(|&a| own || Self::matches(f, &e.attributes[a].name))
                .collect();
            if !own && attrs.is_empty() {
                continue;
            }
            rows.push(Row::Entity(i));
            if f.is_empty() && self.view.collapsed_entities.contains(&e.name) {
                continue;
            }
            rows.extend(attrs.into_iter().map(|a| Row::Attribute(i, a)));
        }
        if self.project.entities.is_empty() {
            rows.push(Row::Empty(EmptyHint::Entities));
        }
        rows.push(Row::RelationshipsHeading);
        for (i, r) in self.project.relationships.iter().enumerate() {
            // The text is made only to filter: most of the time there is none.
            if !f.is_empty() && !Self::matches(f, &format!("{} {} {}", r.name, r.from, r.to)) {
                continue;
            }
            rows.push(Row::Relationship(i));
            rows.extend((0..r.attributes.len()).map(|a| Row::RelAttribute(i, a)));
        }
        rows
    }

    fn workflow_rows(&self) -> Vec<Row> {
        let f = &self.view.panes[1].filter;
        let mut rows = vec![Row::QueriesHeading];
        for (i, q) in self.project.queries.iter().enumerate() {
            if f.is_empty() || Self::matches(f, &format!("{} {}", q.id, q.text)) {
                rows.push(Row::Query(i));
                rows.push(Row::QuerySummary(i));
            }
        }
        if self.project.queries.is_empty() {
            rows.push(Row::Empty(EmptyHint::Queries));
        }
        if !f.is_empty() {
            return rows;
        }
        rows.push(Row::TreeHeading);
        let index: HashMap<&str, usize> = self
            .project
            .queries
            .iter()
            .enumerate()
            .map(|(i, q)| (q.id.as_str(), i))
            .collect();
        let transitions = &self.project.workflow.transitions;
        let mut out: HashMap<&str, Vec<usize>> = HashMap::new();
        for (ti, t) in transitions.iter().enumerate() {
            out.entry(t.from.as_str()).or_default().push(ti);
        }
        let mut seen = HashSet::new();
        for e in &self.project.workflow.entry {
            let Some(&qi) = index.get(e.as_str()) else {
                continue;
            };
            rows.push(Row::TreeQuery { query: qi });
            seen.insert(qi);
            self.tree(&index, &out, e, &mut Vec::new(), &mut seen, &mut rows);
        }
        // Transitions not reachable from an entry point still show, so none
        // can be lost from sight.
        let mut shown = vec![false; transitions.len()];
        for r in &rows {
            if let Row::TreeTransition { transition, .. } = r {
                shown[*transition] = true;
            }
        }
        for (ti, shown) in shown.into_iter().enumerate() {
            if !shown {
                rows.push(Row::TreeTransition {
                    transition: ti,
                    place: TreePlace::UNREACHED,
                });
            }
        }
        rows
    }

    /// The transitions out of `from` and, depth first, the ones out of the
    /// queries they lead to. `lasts` says, per level above, whether that
    /// branch was the last of its siblings.
    fn tree(
        &self,
        index: &HashMap<&str, usize>,
        out: &HashMap<&str, Vec<usize>>,
        from: &str,
        lasts: &mut Vec<bool>,
        seen: &mut HashSet<usize>,
        rows: &mut Vec<Row>,
    ) {
        if lasts.len() > TreePlace::MAX_DEPTH {
            return;
        }
        let Some(next) = out.get(from) else {
            return;
        };
        for (k, ti) in next.iter().enumerate() {
            let last = k + 1 == next.len();
            lasts.push(last);
            rows.push(Row::TreeTransition {
                transition: *ti,
                place: TreePlace::branch(lasts),
            });
            let to = &self.project.workflow.transitions[*ti].to;
            if let Some(&qi) = index.get(to.as_str()) {
                if seen.insert(qi) {
                    self.tree(index, out, to, lasts, seen, rows);
                }
            }
            lasts.pop();
        }
    }

    fn table_rows(&self) -> Vec<Row> {
        let f = &self.view.panes[2].filter;
        let mut rows = Vec::new();
        for (i, t) in self.analysis.model.tables.iter().enumerate() {
            let hit = Self::matches(f, &t.name)
                || (!f.is_empty() && t.columns.iter().any(|c| Self::matches(f, &c.name)));
            if !hit {
                continue;
            }
            rows.push(Row::Table(i));
            if !self.view.collapsed_tables.contains(t.name.as_str()) {
                rows.extend((0..t.columns.len()).map(|c| Row::Column(i, c)));
                rows.push(Row::Estimate(i));
            }
            rows.push(Row::TableEnd(i));
        }
        if self.is_deriving() {
            rows.push(Row::Empty(EmptyHint::Deriving));
        } else if self.analysis.model.tables.is_empty() {
            rows.push(Row::Empty(EmptyHint::Tables));
        }
        rows
    }

    // ---- selection --------------------------------------------------------

    pub fn list_rows(&self, f: Focus) -> &[Row] {
        match f {
            Focus::Concept => &self.view.rows[0],
            Focus::Workflow => &self.view.rows[1],
            Focus::Tables => &self.view.rows[2],
            Focus::Bottom => &[],
        }
    }

    pub(crate) fn selected_row(&self, f: Focus) -> Option<&Row> {
        self.list_rows(f).get(self.view.panes[f.index()].selected)
    }

    /// The item the designer is working on: the focused pane's selection,
    /// or for the bottom pane the last list pane's.
    pub fn selected_item(&self) -> Option<Item> {
        let f = match self.focus {
            Focus::Bottom => self.last_list_focus(),
            f => f,
        };
        self.selected_row(f).and_then(Row::item)
    }

    pub(crate) fn last_list_focus(&self) -> Focus {
        self.view.last_list
    }

    pub fn set_focus(&mut self, f: Focus) {
        if f != Focus::Bottom {
            self.view.last_list = f;
        }
        self.focus = f;
        self.refresh_links();
    }

    pub(crate) fn select_first_selectable(&mut self, f: Focus) {
        let rows = self.list_rows(f);
        let first = rows
            .iter()
            .position(|r| r.selectable() && r.item().is_some())
            .or_else(|| rows.iter().position(Row::selectable))
            .unwrap_or(0);
        self.view.panes[f.index()].selected = first;
    }

    /// Moves the selection by `delta` selectable rows.
    pub(crate) fn move_selection(&mut self, f: Focus, delta: isize) {
        self.step_selection(f, delta);
        self.refresh_links();
    }

    fn step_selection(&mut self, f: Focus, delta: isize) {
        let rows = self.list_rows(f);
        if rows.is_empty() {
            return;
        }
        let mut i = self.view.panes[f.index()].selected.min(rows.len() - 1);
        let mut left = delta.unsigned_abs();
        while left > 0 {
            let next = if delta < 0 {
                i.checked_sub(1)
            } else {
                Some(i + 1).filter(|&n| n < rows.len())
            };
            let Some(mut n) = next else { break };
            // Skip continuation rows in the direction of travel.
            while !rows[n].selectable() {
                match if delta < 0 {
                    n.checked_sub(1)
                } else {
                    Some(n + 1).filter(|&m| m < rows.len())
                } {
                    Some(m) => n = m,
                    None => break,
                }
            }
            if !rows[n].selectable() {
                break;
            }
            i = n;
            left -= 1;
        }
        self.view.panes[f.index()].selected = i;
    }

    pub(crate) fn select_row(&mut self, f: Focus, row: usize) {
        let rows = self.list_rows(f);
        if row >= rows.len() {
            return;
        }
        // A click on a continuation row selects the item it continues.
        let mut r = row;
        while !rows[r].selectable() && r > 0 {
            r -= 1;
        }
        self.view.panes[f.index()].selected = r;
        self.refresh_links();
    }

    /// Keeps every list's selection on a selectable row, without
    /// recomputing the links (the caller does, once).
    fn clamp_rows(&mut self) {
        for f in [Focus::Concept, Focus::Workflow, Focus::Tables] {
            let n = self.list_rows(f).len();
            let p = &mut self.view.panes[f.index()];
            if p.selected >= n {
                p.selected = n.saturating_sub(1);
            }
            if !self
                .list_rows(f)
                .get(self.view.panes[f.index()].selected)
                .is_some_and(Row::selectable)
            {
                self.step_selection(f, -1);
            }
        }
    }

    /// Selects the row of an item in the pane that lists it.
    pub fn reselect(&mut self, item: Item) {
        let (f, want) = match item {
            Item::Entity(_)
            | Item::Attribute(..)
            | Item::Relationship(_)
            | Item::RelAttribute(..) => (Focus::Concept, item),
            Item::Query(_) | Item::Transition(_) => (Focus::Workflow, item),
            Item::Table(_) | Item::Column(..) => (Focus::Tables, item),
        };
        let rows = self.list_rows(f);
        let pos = rows
            .iter()
            .position(|r| r.selectable() && r.item() == Some(want))
            .or_else(|| match want {
                Item::Attribute(e, _) => {
                    rows.iter().position(|r| r.item() == Some(Item::Entity(e)))
                }
                Item::Column(t, _) => rows.iter().position(|r| r.item() == Some(Item::Table(t))),
                _ => None,
            });
        if let Some(p) = pos {
            self.view.panes[f.index()].selected = p;
        }
    }

    /// Recomputes linked highlighting from the current selection.
    pub fn refresh_links(&mut self) {
        self.derived.links = links(&self.project, &self.analysis.model, self.selected_item());
        self.follow_links();
    }

    /// Moves the other list panes' selections onto rows the selection links
    /// to (a query's table, a table's queries, an entity's tables), so the
    /// highlighted rows are in view rather than scrolled away.
    fn follow_links(&mut self) {
        if self.focus == Focus::Bottom {
            return;
        }
        for f in [Focus::Concept, Focus::Workflow, Focus::Tables] {
            if f == self.focus {
                continue;
            }
            let l = &self.derived.links;
            let linked = |r: &Row| match r {
                Row::Entity(e) => l.entities.contains(e),
                Row::Attribute(e, a) => l.attributes.contains(&AttrId::Entity(*e, *a)),
                Row::Relationship(x) => l.relationships.contains(x),
                Row::Query(q) => self
                    .project
                    .queries
                    .get(*q)
                    .is_some_and(|q| l.queries.contains(&q.id)),
                Row::Table(t) => l.tables.contains(t),
                _ => false,
            };
            let rows = self.list_rows(f);
            let current = rows.get(self.view.panes[f.index()].selected);
            let keep = current.is_some_and(|r| {
                linked(r)
                    || match r {
                        Row::Column(t, _) => l.tables.contains(t),
                        Row::Attribute(e, _) => l.entities.contains(e) && l.attributes.is_empty(),
                        _ => false,
                    }
            });
            if keep {
                continue;
            }
            if let Some(i) = rows.iter().position(linked) {
                self.view.panes[f.index()].selected = i;
            }
        }
    }

    /// The selected query: the query row, or the origin of the selected table.
    pub fn current_query(&self) -> Option<usize> {
        match self.selected_item()? {
            Item::Query(q) => Some(q),
            Item::Transition(t) => {
                let to = &self.project.workflow.transitions.get(t)?.to;
                self.project.queries.iter().position(|q| &q.id == to)
            }
            Item::Table(t) | Item::Column(t, _) => {
                let origin = &self.analysis.model.tables.get(t)?.origin;
                self.project.queries.iter().position(|q| &q.id == origin)
            }
            _ => None,
        }
    }

    /// The selected table: the table row, or the table serving the query.
    pub(crate) fn current_table(&self) -> Option<usize> {
        match self.selected_item()? {
            Item::Table(t) | Item::Column(t, _) => Some(t),
            _ => {
                let q = self.project.queries.get(self.current_query()?)?;
                self.analysis.model.plan(&q.id)?.table
            }
        }
    }

    /// What a review note on the selection attaches to: the entity or
    /// relationship, the query, or the table.
    pub(crate) fn note_target(&self) -> Option<Target> {
        let p = &self.project;
        Some(match self.selected_item()? {
            Item::Entity(e) | Item::Attribute(e, _) => {
                Target::Entity(p.entities.get(e)?.name.clone())
            }
            Item::Relationship(r) | Item::RelAttribute(r, _) => {
                Target::Relationship(p.relationships.get(r)?.name.clone())
            }
            Item::Query(_) | Item::Transition(_) => {
                Target::Query(p.queries.get(self.current_query()?)?.id.clone())
            }
            Item::Table(t) | Item::Column(t, _) => {
                Target::Table(self.analysis.model.tables.get(t)?.name.to_string())
            }
        })
    }

    /// Whether a table was changed by the latest edit and should still flash.
    pub(crate) fn flashing(&self, table: &str) -> bool {
        self.derived.changed.contains(table)
            && self
                .derived
                .changed_at
                .is_some_and(|t| t.elapsed().as_millis() < CHANGE_FLASH_MS)
    }

    pub fn counts(&self) -> (usize, usize, usize) {
        use crate::review::diagnose::Severity;
        let d = &self.analysis.diagnostics;
        (
            d.iter().filter(|x| x.severity == Severity::Error).count(),
            d.iter().filter(|x| x.severity == Severity::Warning).count(),
            d.iter().filter(|x| x.severity == Severity::Hint).count(),
        )
    }
}

/// An edit's success label ("added entity Guest") turned into what did not
/// happen ("entity Guest not added"), so a refusal never reads as a
/// success.
pub(crate) fn not_done(what: &str) -> String {
    // Verbs whose object follows ("added entity X"), and verbs whose
    // complement does ("renamed to x", "moved up").
    const OBJECT_FIRST: [&str; 5] = ["added", "deleted", "edited", "flipped", "split"];
    const COMPLEMENT: [&str; 5] = ["renamed", "moved", "pinned", "merged", "restored"];
    let verb = what.split(' ').next().unwrap_or("");
    match what.split_once(' ') {
        Some((verb, rest)) if OBJECT_FIRST.contains(&verb) => format!("{rest} not {verb}"),
        _ if OBJECT_FIRST.contains(&verb) || COMPLEMENT.contains(&verb) => format!("not {what}"),
        _ => format!("{what}: not changed"),
    }
}

#[cfg(test)]
mod not_done_tests {
    use super::not_done;

    #[test]
    fn refusals_do_not_read_as_successes() {
        assert_eq!(
            not_done("added entity My Entity"),
            "entity My Entity not added"
        );
        assert_eq!(not_done("renamed to x"), "not renamed to x");
        assert_eq!(not_done("deleted"), "not deleted");
        assert_eq!(not_done("Q1 ordering"), "Q1 ordering: not changed");
    }
}

#[cfg(test)]
mod row_tests {
    use super::App;
    use crate::edit::Edit;
    use crate::tui::action::{update, Action};
    use crate::tui::config::Dirs;

    type Step = Box<dyn Fn(&mut App)>;

    fn fresh(app: &App) -> [Vec<super::Row>; 3] {
        [app.concept_rows(), app.workflow_rows(), app.table_rows()]
    }

    /// Panes whose inputs did not change keep their rows; whatever
    /// changes, the rows are the ones a rebuild from scratch gives.
    #[test]
    fn kept_rows_equal_rebuilt_rows() {
        let p = crate::model::load::from_str(crate::tui::SAMPLE).expect("the sample loads");
        let mut app = App::new(p, None, Dirs::default());
        assert_eq!(app.view.rows, fresh(&app));
        let returns = app.project.queries[0].returns[..1].to_vec();
        let steps: Vec<Step> = vec![
            Box::new(|a| {
                update(a, Action::Edit(Edit::ToggleEntry(1)));
            }),
            Box::new(move |a| {
                update(a, Action::Edit(Edit::SetReturns(0, returns.clone())));
            }),
            Box::new(|a| {
                update(a, Action::Edit(Edit::AddEntity("GuestBook".into())));
            }),
            Box::new(|a| {
                let e = a.project.entities[0].name.clone();
                a.view.collapsed_entities.insert(e);
                a.rebuild_rows();
            }),
            Box::new(|a| {
                let t = a.analysis.model.tables[0].name.clone();
                a.view.collapsed_tables.insert(t.to_string());
                a.rebuild_rows();
            }),
            Box::new(|a| {
                a.view.panes[1].filter = "q1".into();
                a.rebuild_rows();
            }),
            Box::new(|a| {
                a.view.panes[0].filter = "room".into();
                a.view.panes[2].filter = "room".into();
                a.rebuild_rows();
            }),
            Box::new(App::undo),
            Box::new(App::undo),
            Box::new(App::redo),
            Box::new(|a| {
                a.view.panes[0].filter.clear();
                a.view.panes[1].filter.clear();
                a.rebuild_rows();
            }),
        ];
        for (i, step) in steps.iter().enumerate() {
            let before = app.view.rows.clone();
            step(&mut app);
            assert_eq!(app.view.rows, fresh(&app), "after step {i}");
            assert!(
                i > 2 || app.view.rows != before,
                "step {i} changes something shown"
            );
        }
    }
}

#[cfg(test)]
mod tree_place_tests {
    use super::{Row, TreePlace};

    #[test]
    fn branch_lines_follow_the_levels_above() {
        assert_eq!(TreePlace::branch(&[false]).prefix("Q1"), "├─");
        assert_eq!(TreePlace::branch(&[true]).prefix("Q1"), "└─");
        assert_eq!(
            TreePlace::branch(&[false, true, false]).prefix("Q1"),
            "│   ├─"
        );
        assert_eq!(
            TreePlace::branch(&[true, false, true]).prefix("Q1"),
            "  │ └─"
        );
        let deepest = vec![true; TreePlace::MAX_DEPTH + 1];
        assert_eq!(
            TreePlace::branch(&deepest).prefix("Q1"),
            format!("{}└─", "  ".repeat(TreePlace::MAX_DEPTH))
        );
    }

    #[test]
    fn an_unreached_transition_names_its_source_made_safe() {
        assert_eq!(TreePlace::UNREACHED.prefix("Q7"), "Q7 ");
        let drawn = TreePlace::UNREACHED.prefix("Q\u{1b}[2J7");
        assert!(!drawn.contains('\u{1b}'), "{drawn:?}");
    }

    /// A large project keeps a row per line of every pane (190,000 at
    /// 10,000 queries).
    #[test]
    fn a_row_stays_small() {
        assert!(std::mem::size_of::<Row>() <= 24);
    }
}
