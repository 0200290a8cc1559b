//! The command line: a thin shell over the core. Exit codes: 0 fine,
//! 1 the project has errors (`check`), 2 unusable input or usage.

use crate::analysis::{analyze, Analysis};
use crate::model::load::{self, LoadError};
use crate::model::Project;
use crate::review::diagnose::Severity;
use clap::{Parser, Subcommand, ValueEnum};
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Parser, Debug)]
#[command(
    name = "cqlmodel",
    version,
    about = "A terminal workbench for query-driven Apache Cassandra data modeling",
    long_about = "Without a subcommand, opens the workbench on FILE, or on a welcome screen (a recent file, a bundled sample, a new project) when no FILE is given.",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// Project file to open in the workbench (.cqlm.ron).
    pub file: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Start an empty project in the workbench (saved to FILE).
    New { file: PathBuf },
    /// Print the logical tables in Chebotko notation with estimates.
    Derive {
        file: PathBuf,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Write the CQL schema (keyspace, types, tables, indexes; SELECTs as comments).
    Cql {
        file: PathBuf,
        /// Output file; standard output when absent.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// What the design costs the cluster under the project's workload:
    /// per query, per table and per design, with every assumption.
    Cost {
        file: PathBuf,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Load tests of the design: cassandra-stress profiles and a script
    /// (written into the directory -o names), or a `NoSQLBench` workload.
    Loadtest {
        file: PathBuf,
        #[arg(long, value_enum)]
        format: LoadtestFormat,
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Compare candidate primary keys of a query's table, query by query.
    Alternatives {
        file: PathBuf,
        /// The query whose table's candidates to compare (e.g. Q1).
        query: String,
    },
    /// Read a CQL schema (as cqlsh DESCRIBE prints it) into a starting project.
    Import {
        schema: PathBuf,
        /// Project file to write; standard output when absent.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Overwrite the output file if it exists.
        #[arg(long)]
        force: bool,
        /// The keyspace to import (a project holds one); the first the
        /// schema creates when absent.
        #[arg(long)]
        keyspace: Option<String>,
    },
    /// Semantic diff of two projects: model, tables and their impact on a
    /// running cluster; exit 1 when a change breaks it.
    Diff {
        /// The older project (or, with --git, the newer one).
        old: Option<PathBuf>,
        /// The newer project.
        new: Option<PathBuf>,
        /// Compare with a committed version: REV or REV:PATH.
        #[arg(long, value_name = "REV[:PATH]")]
        git: Option<String>,
        #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
        format: DiffFormat,
    },
    /// The CQL that moves a cluster from OLD's schema to NEW's.
    Migrate {
        old: PathBuf,
        new: PathBuf,
        /// Output file; standard output when absent.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// List the review rules with their severity and source.
    Rules,
    /// The workbench's configuration: where `config.ron` is read from and
    /// whether it loads (exit 1 when it has problems).
    Config {
        /// Print a commented default `config.ron` naming every command a key
        /// can be bound to and every colour role.
        #[arg(long)]
        print_default: bool,
    },
    /// Report errors and review diagnostics; exit 1 when there are errors.
    Check {
        file: PathBuf,
        /// text, json, sarif (SARIF 2.1.0 for code scanning) or github
        /// (workflow-command annotations).
        #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
        format: CheckFormat,
        /// Also fail (exit 1) on warnings: `--deny warnings`.
        #[arg(long, value_enum)]
        deny: Option<Deny>,
        /// An earlier version of the project (e.g. from the base branch):
        /// `--deny warnings` then fails only on warnings it did not have.
        #[arg(long)]
        baseline: Option<PathBuf>,
        /// Compare with a running schema (CQL as DESCRIBE prints it): does
        /// it answer each query; exit 1 when a query is not answered or
        /// the live table breaks its SELECT.
        #[arg(long, value_name = "SCHEMA.cql")]
        against: Option<PathBuf>,
    },
    /// Write the design review report: HTML (self-contained) or Markdown.
    Report {
        file: PathBuf,
        /// html or md; by default from the output's extension, else html.
        #[arg(long, value_enum)]
        format: Option<ReportFormat>,
        /// Output file; standard output when absent.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Draw a diagram: the ER model, the workflow or the logical (Chebotko) model.
    Diagram {
        file: PathBuf,
        #[arg(long, value_enum, default_value_t = DiagramView::Logical)]
        view: DiagramView,
        /// svg, dot or mermaid; by default from the output's extension, else svg.
        #[arg(long, value_enum)]
        format: Option<DiagramFormat>,
        /// Output file; standard output when absent.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    Text,
    Json,
    Sarif,
    Github,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Html,
    Md,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiagramView {
    Er,
    Workflow,
    Logical,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiagramFormat {
    Svg,
    Dot,
    Mermaid,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LoadtestFormat {
    CassandraStress,
    Nosqlbench,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Text,
    Md,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Deny {
    Warnings,
}

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match cli.command {
        None => crate::tui::run(match cli.file {
            Some(f) => crate::tui::Launch::Open(f),
            None => crate::tui::Launch::Welcome,
        }),
        Some(Command::New { file }) => crate::tui::run(crate::tui::Launch::New(file)),
        Some(Command::Derive { file, format }) => derive_cmd(&file, format),
        Some(Command::Cql { file, output }) => cql_cmd(&file, output.as_deref()),
        Some(Command::Check {
            file,
            format,
            against: Some(schema),
            ..
        }) => against_cmd(&file, &schema, format),
        Some(Command::Check {
            file,
            format,
            deny,
            baseline,
            against: None,
        }) => check_cmd(&file, format, deny, baseline.as_deref()),
        Some(Command::Report {
            file,
            format,
            output,
        }) => report_cmd(&file, format, output.as_deref()),
        Some(Command::Diagram {
            file,
            view,
            format,
            output,
        }) => diagram_cmd(&file, view, format, output.as_deref()),
        Some(Command::Cost { file, format }) => cost_cmd(&file, format),
        Some(Command::Loadtest {
            file,
            format,
            output,
        }) => loadtest_cmd(&file, format, output.as_deref()),
        Some(Command::Alternatives { file, query }) => alternatives_cmd(&file, &query),
        Some(Command::Import {
            schema,
            output,
            force,
            keyspace,
        }) => import_cmd(&schema, output.as_deref(), force, keyspace.as_deref()),
        Some(Command::Diff {
            old,
            new,
            git,
            format,
        }) => diff_cmd(old.as_deref(), new.as_deref(), git.as_deref(), format),
        Some(Command::Migrate { old, new, output }) => migrate_cmd(&old, &new, output.as_deref()),
        Some(Command::Config { print_default }) => config_cmd(print_default),
        Some(Command::Rules) => {
            let mut s = String::new();
            for r in crate::review::diagnose::RULES {
                let _ = write!(
                    s,
                    "{:<24} {:<8} {}\n{:<33} source: {}\n",
                    r.id,
                    r.severity.label(),
                    r.title,
                    "",
                    r.source
                );
            }
            print(&s)
        }
    }
}

fn config_cmd(print_default: bool) -> i32 {
    use crate::tui::config;
    if print_default {
        return print(&config::default_config_text());
    }
    let dirs = config::Dirs::from_env();
    let Some(path) = dirs.config_file() else {
        return print("no config folder (no home directory): the workbench uses its defaults\n");
    };
    let display = path.display().to_string();
    let shown = crate::model::naming::for_terminal(&display);
    if !path.exists() {
        return print(&format!(
            "{shown}: not present, the workbench uses its defaults\n(`cqlmodel config --print-default > {shown}` writes one to edit)\n"
        ));
    }
    let (cfg, broken) = dirs.load_config();
    let mut problems: Vec<String> = broken.into_iter().collect();
    problems.extend(crate::tui::keymap::Keymap::with_overrides(&cfg.keys).1);
    problems.extend(crate::tui::theme::Theme::with_overrides(&cfg.colors).1);
    if problems.is_empty() {
        print(&format!("{shown}: loads without problems\n"))
    } else {
        let mut s = format!("{shown}: {} problem(s)\n", problems.len());
        for p in problems {
            let _ = writeln!(s, "  {}", crate::model::naming::for_terminal(&p));
        }
        let _ = print(&s);
        1
    }
}

fn fail(msg: &str) -> i32 {
    // Each line made safe on its own, so multi-line reports keep their lines.
    let lines: Vec<_> = msg
        .lines()
        .map(crate::model::naming::for_terminal)
        .collect();
    eprintln!("cqlmodel: {}", lines.join("\n"));
    2
}

fn load_valid(file: &Path) -> Result<Project, i32> {
    load::read(file).map_err(|e| match e {
        LoadError::Invalid(problems) => {
            let mut msg = format!(
                "{}: the project has {} problem(s):",
                file.display(),
                problems.len()
            );
            for p in problems {
                let _ = write!(msg, "\n  {p}");
            }
            fail(&msg)
        }
        other => fail(&format!("{}: {other}", file.display())),
    })
}

/// Writes to standard output. Every output passes through here, made safe
/// for the terminal: file text cannot smuggle escape sequences through.
fn print(text: &str) -> i32 {
    let text = crate::model::terminal_text::block_for_terminal(text);
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => 0,
        // A closed pipe (`| head`) is not an error worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => fail(&format!("writing output: {e}")),
    }
}

fn derive_cmd(file: &Path, format: Format) -> i32 {
    let project = match load_valid(file) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let a = analyze(&project);
    match format {
        Format::Text => print(&crate::output::report::chebotko(&project, &a)),
        Format::Json => print(&json(&serde_json::json!({
            "project": project.name,
            "keyspace": project.keyspace.name,
            "tables": tables_json(&a),
            "plans": a.model.plans,
            "writes": a.model.writes,
        }))),
    }
}

fn tables_json(a: &Analysis) -> serde_json::Value {
    serde_json::Value::Array(
        a.model
            .tables
            .iter()
            .zip(&a.estimates)
            .map(|(t, e)| {
                let mut v = serde_json::to_value(t).unwrap_or_default();
                if let Some(obj) = v.as_object_mut() {
                    obj.insert(
                        "estimate".into(),
                        serde_json::to_value(e).unwrap_or_default(),
                    );
                    if let Some(cols) = obj.get_mut("columns").and_then(|c| c.as_array_mut()) {
                        for (c, col) in cols.iter_mut().zip(&t.columns) {
                            if let Some(o) = c.as_object_mut() {
                                o.insert("marker".into(), col.role.marker().into());
                                o.insert("type".into(), col.ty.to_string().into());
                                o.insert("reason".into(), col.reason().into());
                                if let Some(how) = col.source.computation() {
                                    o.insert("computed".into(), how.into());
                                }
                            }
                        }
                    }
                }
                v
            })
            .collect(),
    )
}

fn json(v: &serde_json::Value) -> String {
    let s = serde_json::to_string_pretty(v).unwrap_or_else(|_| "null".into());
    // The same JSON value with C1 and bidi characters as \u escapes, so
    // `print` has nothing left to replace.
    let mut s = crate::model::terminal_text::json_for_terminal(&s).into_owned();
    s.push('\n');
    s
}

fn cql_cmd(file: &Path, output: Option<&Path>) -> i32 {
    let project = match load_valid(file) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let a = analyze(&project);
    let text = crate::output::cql::script(&project, &a.model);
    // A schema Cassandra would refuse is still written (to read and fix),
    // but said so and failed.
    let refused: Vec<&crate::review::diagnose::Diagnostic> = a
        .diagnostics
        .iter()
        .filter(|d| crate::review::diagnose::INVALID_CQL.contains(&d.rule))
        .collect();
    for d in &refused {
        eprintln!(
            "error[{}]: {}",
            d.rule,
            crate::model::naming::for_terminal(d.message())
        );
    }
    let status = if refused.is_empty() {
        0
    } else {
        eprintln!(
            "cqlmodel: Cassandra would refuse this schema ({} error(s) above; cqlmodel check shows them with fixes)",
            refused.len()
        );
        1
    };
    match output {
        None => print(&text).max(status),
        Some(out) => match load::write_atomic(out, &text) {
            Ok(()) => {
                let out = out.display().to_string();
                eprintln!(
                    "wrote {} ({} tables)",
                    crate::model::naming::for_terminal(&out),
                    a.model.tables.len()
                );
                status
            }
            Err(e) => fail(&format!("{}: {e}", out.display())),
        },
    }
}

fn cost_cmd(file: &Path, format: Format) -> i32 {
    let project = match load_valid(file) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let a = analyze(&project);
    let c = crate::derive::cost::cost(&project, &a.model, &a.estimates);
    match format {
        Format::Text => print(&crate::output::cost::text(&c)),
        Format::Json => print(&json(&serde_json::json!(c))),
    }
}

fn loadtest_cmd(file: &Path, format: LoadtestFormat, output: Option<&Path>) -> i32 {
    let project = match load_valid(file) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let a = analyze(&project);
    let c = crate::derive::cost::cost(&project, &a.model, &a.estimates);
    match format {
        LoadtestFormat::Nosqlbench => emit(
            &crate::output::loadtest::nosqlbench(&project, &a, &c),
            output,
            "NoSQLBench workload",
        ),
        LoadtestFormat::CassandraStress => {
            let files = crate::output::loadtest::cassandra_stress(&project, &a, &c);
            let Some(dir) = output else {
                let mut text = String::new();
                for (name, body) in &files {
                    let _ = writeln!(text, "==> {name} <==\n{body}");
                }
                return print(&text);
            };
            if let Err(e) = std::fs::create_dir_all(dir) {
                return fail(&format!("{}: {e}", dir.display()));
            }
            for (name, body) in &files {
                let code = emit(body, Some(&dir.join(name)), "cassandra-stress");
                if code != 0 {
                    return code;
                }
            }
            0
        }
    }
}

fn alternatives_cmd(file: &Path, query: &str) -> i32 {
    let project = match load_valid(file) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if project.query(query).is_none() {
        let ids = project.queries.iter().map(|q| q.id.as_str());
        let hint = crate::model::naming::closest(query, ids)
            .map(|s| format!("; did you mean {s}?"))
            .unwrap_or_default();
        return fail(&format!("{}: no query {query}{hint}", file.display()));
    }
    let m = crate::review::alternatives::matrix(&project, query);
    print(&crate::review::alternatives::render(&project, &m))
}

/// Writes an artifact to a file (saying so on stderr) or to stdout.
fn emit(text: &str, output: Option<&Path>, what: &str) -> i32 {
    match output {
        None => print(text),
        Some(out) => match load::write_atomic(out, text) {
            Ok(()) => {
                eprintln!("wrote {} ({what})", out.display());
                0
            }
            Err(e) => fail(&format!("{}: {e}", out.display())),
        },
    }
}

fn report_cmd(file: &Path, format: Option<ReportFormat>, output: Option<&Path>) -> i32 {
    use crate::output::design_report::Format as F;
    let project = match load_valid(file) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let format = match format {
        Some(ReportFormat::Html) => F::Html,
        Some(ReportFormat::Md) => F::Markdown,
        None => output.map_or(F::Html, F::from_extension),
    };
    let a = analyze(&project);
    let text = crate::output::design_report::render(&project, &a, format);
    let what = match format {
        F::Html => "HTML report",
        F::Markdown => "Markdown report",
    };
    emit(&text, output, what)
}

fn diagram_cmd(
    file: &Path,
    view: DiagramView,
    format: Option<DiagramFormat>,
    output: Option<&Path>,
) -> i32 {
    use crate::output::diagram::{Format as F, View};
    let project = match load_valid(file) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let view = match view {
        DiagramView::Er => View::Er,
        DiagramView::Workflow => View::Workflow,
        DiagramView::Logical => View::Logical,
    };
    let format = match format {
        Some(DiagramFormat::Svg) => F::Svg,
        Some(DiagramFormat::Dot) => F::Dot,
        Some(DiagramFormat::Mermaid) => F::Mermaid,
        None => output.and_then(F::from_extension).unwrap_or(F::Svg),
    };
    let a = analyze(&project);
    let text = crate::output::diagram::render(view, format, &project, &a);
    emit(&text, output, &format!("{} diagram", view.name()))
}

/// Identities of the findings a baseline project already had, so CI can
/// fail on new ones only.
fn baseline_keys(file: &Path) -> Result<std::collections::HashSet<(String, String)>, i32> {
    let project = load_valid(file)?;
    let a = analyze(&project);
    Ok(a.diagnostics
        .iter()
        .map(|d| {
            (
                d.rule.to_string(),
                crate::output::report::subject_label(&d.subject),
            )
        })
        .collect())
}

fn check_cmd(file: &Path, format: CheckFormat, deny: Option<Deny>, baseline: Option<&Path>) -> i32 {
    let text = match load::read_text(file) {
        Ok(t) => t,
        Err(e) => return fail(&e.to_string()),
    };
    let project = match load::parse(&text) {
        Ok(p) => p,
        Err(LoadError::Invalid(problems)) => {
            return fail(&format!(
                "{}: {}",
                file.display(),
                LoadError::Invalid(problems)
            ))
        }
        Err(e) => return fail(&format!("{}: {e}", file.display())),
    };
    let problems = load::validate_text(&project, &text);
    let a = if problems.is_empty() {
        analyze(&project)
    } else {
        Analysis::default()
    };
    // Waived findings are shown, but counted apart and never fail.
    let count = |s: Severity| {
        a.diagnostics
            .iter()
            .filter(|d| d.severity == s && d.waived.is_none())
            .count()
    };
    let errors = problems.len() + count(Severity::Error);
    let warnings = count(Severity::Warning);
    let hints = count(Severity::Hint);
    let waived = a.diagnostics.iter().filter(|d| d.waived.is_some()).count();
    let known = match baseline.map(baseline_keys).transpose() {
        Ok(k) => k,
        Err(code) => return code,
    };
    let new_warnings = a
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning && d.waived.is_none())
        .filter(|d| {
            known.as_ref().is_none_or(|k| {
                !k.contains(&(
                    d.rule.to_string(),
                    crate::output::report::subject_label(&d.subject),
                ))
            })
        })
        .count();
    let code = i32::from(errors > 0 || (deny == Some(Deny::Warnings) && new_warnings > 0));
    let shown = match format {
        CheckFormat::Sarif | CheckFormat::Github => {
            let shown_file = file.display().to_string();
            let findings = crate::output::annotations::findings(&text, &project, &a, &problems);
            print(&if format == CheckFormat::Sarif {
                crate::output::annotations::sarif(&shown_file, &findings)
            } else {
                crate::output::annotations::github(&shown_file, &findings)
            })
        }
        CheckFormat::Json => {
            let mut out = serde_json::json!({
                "file": file.display().to_string(),
                "errors": errors,
                "warnings": warnings,
                "hints": hints,
                "problems": problems,
                "diagnostics": a.diagnostics,
            });
            // Only when there are some: output without waivers is unchanged.
            if let (true, Some(o)) = (waived > 0, out.as_object_mut()) {
                o.insert("waived".into(), waived.into());
            }
            print(&json(&out))
        }
        CheckFormat::Text => {
            let mut s = String::new();
            for p in &problems {
                let _ = writeln!(s, "error[reference] {p}");
            }
            s.push_str(&crate::output::report::diagnostics(&a));
            let _ = write!(
                s,
                "{}: {errors} error(s), {warnings} warning(s), {hints} hint(s)",
                file.display()
            );
            if waived > 0 {
                let _ = write!(s, ", {waived} waived");
            }
            s.push('\n');
            if known.is_some() {
                let _ = writeln!(s, "{new_warnings} warning(s) not in the baseline");
            }
            print(&s)
        }
    };
    if shown != 0 {
        return shown;
    }
    code
}

fn read_schema(file: &Path) -> Result<String, i32> {
    load::read_user_file(file).map_err(|e| fail(&format!("{}: {e}", file.display())))
}

fn import_cmd(schema: &Path, output: Option<&Path>, force: bool, keyspace: Option<&str>) -> i32 {
    let text = match read_schema(schema) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let imported = crate::lifecycle::import::import_keyspace(&text, keyspace);
    for m in &imported.messages {
        eprintln!(
            "{}:{}",
            crate::model::naming::for_terminal(&schema.display().to_string()),
            crate::model::naming::for_terminal(&m.to_string())
        );
    }
    // Statements Cassandra would refuse were skipped: the project lacks
    // them, and the exit status says so.
    let skipped = imported
        .messages
        .iter()
        .filter(|m| m.level == crate::lifecycle::import::Level::Error)
        .count();
    if skipped > 0 && imported.schema.tables.is_empty() {
        return fail(&format!(
            "{}: nothing imported; {skipped} statement(s) could not be read (see above)",
            schema.display()
        ));
    }
    let ron = load::to_string(&imported.project);
    let views = imported
        .schema
        .tables
        .iter()
        .filter(|t| t.view_of.is_some())
        .count();
    let mut summary = format!(
        "imported {} table(s), {}{} type(s) into {} entities and {} queries",
        imported.schema.tables.len() - views,
        if views > 0 {
            format!("{views} materialized view(s), ")
        } else {
            String::new()
        },
        imported.project.types.len(),
        imported.project.entities.len(),
        imported.project.queries.len()
    );
    if skipped > 0 {
        let _ = write!(
            summary,
            "; {skipped} statement(s) skipped (see above): the project lacks them"
        );
    }
    let status = i32::from(skipped > 0);
    match output {
        None => {
            eprintln!("{summary}");
            print(&ron).max(status)
        }
        Some(out) => {
            if out.exists() && !force {
                return fail(&format!(
                    "{} exists already; --force overwrites it",
                    out.display()
                ));
            }
            match load::write_atomic(out, &ron) {
                Ok(()) => {
                    eprintln!("{summary}; wrote {}", out.display());
                    status
                }
                Err(e) => fail(&format!("{}: {e}", out.display())),
            }
        }
    }
}

/// A project file, or the empty project for `/dev/null` (git's side of an
/// added or deleted file).
fn load_side(file: &Path) -> Result<Project, i32> {
    if file == Path::new("/dev/null") {
        return Ok(Project::empty("empty"));
    }
    load_valid(file)
}

/// The project as committed: `git show REV:PATH`.
fn load_git(spec: &str, fallback: Option<&Path>) -> Result<(Project, String), i32> {
    let (rev, path) = match spec.split_once(':') {
        Some((r, p)) => (r.to_string(), p.to_string()),
        None => match fallback {
            Some(f) => (spec.to_string(), format!("./{}", f.display())),
            None => return Err(fail("--git REV needs a FILE, or use --git REV:PATH")),
        },
    };
    // A revision is never an option (`--output=FILE` would write a file).
    if rev.starts_with('-') {
        return Err(fail(&format!(
            "--git {}: a revision cannot start with '-'",
            crate::model::naming::for_terminal(&rev)
        )));
    }
    let out = std::process::Command::new("git")
        .arg("show")
        .arg("--end-of-options")
        .arg(format!("{rev}:{path}"))
        .output()
        .map_err(|e| fail(&format!("git: {e}")))?;
    if !out.status.success() {
        return Err(fail(&format!(
            "git show {rev}:{path}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let text = String::from_utf8(out.stdout).map_err(|_| fail("git show: not UTF-8 text"))?;
    let label = format!("{rev}:{path}");
    load::from_str(&text)
        .map(|p| (p, label.clone()))
        .map_err(|e| fail(&format!("{label}: {e}")))
}

fn diff_cmd(old: Option<&Path>, new: Option<&Path>, git: Option<&str>, format: DiffFormat) -> i32 {
    let (old_p, new_p) = match (git, old, new) {
        (Some(spec), file, None) => {
            let (o, _) = match load_git(spec, file) {
                Ok(x) => x,
                Err(c) => return c,
            };
            let Some(file) = file else {
                // REV:PATH alone compares with the working copy of PATH.
                let path = spec.split_once(':').map(|x| x.1).unwrap_or_default();
                return match load_side(Path::new(path)) {
                    Ok(n) => show_diff(&o, &n, format),
                    Err(c) => c,
                };
            };
            match load_side(file) {
                Ok(n) => (o, n),
                Err(c) => return c,
            }
        }
        (None, Some(o), Some(n)) => match (load_side(o), load_side(n)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(c), _) | (_, Err(c)) => return c,
        },
        _ => return fail("usage: cqlmodel diff OLD NEW, or cqlmodel diff --git REV[:PATH] [FILE]"),
    };
    show_diff(&old_p, &new_p, format)
}

/// `/dev/null` stands for no schema at all: it takes the other side's
/// keyspace, so adding or deleting a file is not a keyspace rename.
fn with_sides(old: &Project, new: &Project) -> (Project, Project) {
    let blank = |p: &Project| p.entities.is_empty() && p.queries.is_empty() && p.types.is_empty();
    let (mut o, mut n) = (old.clone(), new.clone());
    if blank(&o) {
        o.keyspace = n.keyspace.clone();
        o.cassandra = n.cassandra;
    } else if blank(&n) {
        n.keyspace = o.keyspace.clone();
        n.cassandra = o.cassandra;
    }
    (o, n)
}

fn show_diff(old: &Project, new: &Project, format: DiffFormat) -> i32 {
    use crate::lifecycle::diff::semantic;
    let (old, new) = with_sides(old, new);
    let d = semantic::semantic(&old, &new);
    let shown = match format {
        DiffFormat::Text => print(&safe_lines(&semantic::text(&d))),
        DiffFormat::Md => print(&safe_lines(&semantic::markdown(&d))),
        DiffFormat::Json => print(&json(&serde_json::json!({
            "breaking": d.is_breaking(),
            "items": d.items,
            "tables": d.tables,
            "findings_added": d.findings_added,
            "findings_resolved": d.findings_resolved,
        }))),
    };
    if shown != 0 {
        return shown;
    }
    i32::from(d.is_breaking())
}

fn migrate_cmd(old: &Path, new: &Path, output: Option<&Path>) -> i32 {
    let (o, n) = match (load_side(old), load_side(new)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(c), _) | (_, Err(c)) => return c,
    };
    let (o, n) = with_sides(&o, &n);
    let text = crate::lifecycle::migrate::script(&o, &n);
    match output {
        None => print(&text),
        Some(out) => match load::write_atomic(out, &text) {
            Ok(()) => {
                eprintln!("wrote {}", out.display());
                0
            }
            Err(e) => fail(&format!("{}: {e}", out.display())),
        },
    }
}

/// Text from project files made safe for the terminal line by line.
fn safe_lines(text: &str) -> String {
    let mut s = String::new();
    for l in text.lines() {
        s.push_str(&crate::model::naming::for_terminal(l));
        s.push('\n');
    }
    s
}

fn against_cmd(file: &Path, schema_file: &Path, format: CheckFormat) -> i32 {
    use crate::lifecycle::import::against::{self, Answer};
    let format = match format {
        CheckFormat::Text => Format::Text,
        CheckFormat::Json => Format::Json,
        CheckFormat::Sarif | CheckFormat::Github => {
            eprintln!("error: check --against writes text or json");
            return 2;
        }
    };
    let project = match load_valid(file) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let text = match read_schema(schema_file) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let mut schema = crate::lifecycle::import::parse(&text);
    // The model's keyspace only: another keyspace's table of the same
    // name is not this model's table.
    let ks = &project.keyspace.name;
    schema
        .tables
        .retain(|t| t.keyspace.as_ref().is_none_or(|k| k == ks));
    for m in &schema.messages {
        eprintln!(
            "{}:{}",
            crate::model::naming::for_terminal(&schema_file.display().to_string()),
            crate::model::naming::for_terminal(&m.to_string())
        );
    }
    let a = analyze(&project);
    let d = against::drift(&project, &a, &schema);
    let shown = match format {
        Format::Json => print(&json(&serde_json::json!({
            "file": file.display().to_string(),
            "schema": schema_file.display().to_string(),
            "queries": d.queries,
            "unused_tables": d.unused_tables,
            "views": d.views,
        }))),
        Format::Text => print(&safe_lines(&against::text(&d))),
    };
    if shown != 0 {
        return shown;
    }
    i32::from(
        d.queries
            .iter()
            .any(|q| q.breaks || q.answer == Answer::NotAtAll),
    )
}
