//! Colours by role, so the config can restyle the workbench without the
//! drawing code knowing any colour names.

use super::config::parse_color;
use ratatui::style::{Color, Modifier, Style};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq)]
pub struct Theme {
    pub accent: Color,
    pub border: Color,
    pub focus_border: Color,
    pub selected_bg: Color,
    pub linked: Color,
    pub changed_bg: Color,
    pub dim: Color,
    pub key: Color,
    pub ok: Color,
    pub warn: Color,
    pub bad: Color,
    pub hint_key: Color,
}

impl Default for Theme {
    fn default() -> Self {
        Theme {
            accent: Color::Cyan,
            border: Color::DarkGray,
            focus_border: Color::Cyan,
            selected_bg: Color::Indexed(238),
            linked: Color::Yellow,
            changed_bg: Color::Indexed(22),
            dim: Color::DarkGray,
            key: Color::LightMagenta,
            ok: Color::Green,
            warn: Color::Indexed(214),
            bad: Color::Red,
            hint_key: Color::Cyan,
        }
    }
}

impl Theme {
    /// The default theme with the config's colours; unknown roles or
    /// colour names are reported.
    pub fn with_overrides(colors: &BTreeMap<String, String>) -> (Theme, Vec<String>) {
        let mut t = Theme::default();
        let mut errors = Vec::new();
        for (role, name) in colors {
            let Some(c) = parse_color(name) else {
                errors.push(format!("unknown colour \"{name}\" for {role}"));
                continue;
            };
            let slot = match role.as_str() {
                "accent" => &mut t.accent,
                "border" => &mut t.border,
                "focus_border" => &mut t.focus_border,
                "selected_bg" => &mut t.selected_bg,
                "linked" => &mut t.linked,
                "changed_bg" => &mut t.changed_bg,
                "dim" => &mut t.dim,
                "key" => &mut t.key,
                "ok" => &mut t.ok,
                "warn" => &mut t.warn,
                "bad" => &mut t.bad,
                "hint_key" => &mut t.hint_key,
                _ => {
                    errors.push(format!("unknown colour role \"{role}\""));
                    continue;
                }
            };
            *slot = c;
        }
        (t, errors)
    }

    pub fn selected(&self) -> Style {
        Style::new()
            .bg(self.selected_bg)
            .add_modifier(Modifier::BOLD)
    }

    pub fn linked(&self) -> Style {
        Style::new().fg(self.linked)
    }

    pub fn dim(&self) -> Style {
        Style::new().fg(self.dim)
    }

    pub fn title(&self) -> Style {
        Style::new().fg(self.accent).add_modifier(Modifier::BOLD)
    }
}
