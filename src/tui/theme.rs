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

/// Every colour role the config may set, with what it colours: the one list
/// behind the overrides, the commented default config and docs/workbench.md.
pub const ROLES: &[(&str, &str)] = &[
    ("accent", "titles and the focused pane's name"),
    ("border", "pane borders"),
    ("focus_border", "the focused pane's border"),
    ("selected_bg", "background of the selected row"),
    ("linked", "items linked to the selection"),
    ("changed_bg", "background of what the last edit changed"),
    ("dim", "secondary text"),
    ("key", "key columns (K, C)"),
    ("ok", "within limits, success messages"),
    ("warn", "warnings, near limits"),
    ("bad", "errors, over limits"),
    ("hint_key", "keys in the status-bar hints"),
];

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
            match t.slot(role) {
                Some(slot) => *slot = c,
                None => errors.push(format!("unknown colour role \"{role}\"")),
            }
        }
        (t, errors)
    }

    /// The colour of a role, by its config name.
    pub(crate) fn color(&self, role: &str) -> Option<Color> {
        let mut t = self.clone();
        t.slot(role).copied()
    }

    fn slot(&mut self, role: &str) -> Option<&mut Color> {
        Some(match role {
            "accent" => &mut self.accent,
            "border" => &mut self.border,
            "focus_border" => &mut self.focus_border,
            "selected_bg" => &mut self.selected_bg,
            "linked" => &mut self.linked,
            "changed_bg" => &mut self.changed_bg,
            "dim" => &mut self.dim,
            "key" => &mut self.key,
            "ok" => &mut self.ok,
            "warn" => &mut self.warn,
            "bad" => &mut self.bad,
            "hint_key" => &mut self.hint_key,
            _ => return None,
        })
    }

    pub fn selected(&self) -> Style {
        Style::new()
            .bg(self.selected_bg)
            .add_modifier(Modifier::BOLD)
    }

    pub(crate) fn linked(&self) -> Style {
        Style::new().fg(self.linked)
    }

    pub(crate) fn dim(&self) -> Style {
        Style::new().fg(self.dim)
    }

    pub fn title(&self) -> Style {
        Style::new().fg(self.accent).add_modifier(Modifier::BOLD)
    }
}

/// A colour as the config writes it, so that [`parse_color`] reads it back:
/// a name (`darkgray`), a palette index (`214`) or `#rrggbb`.
pub(crate) fn color_name(c: Color) -> String {
    match c {
        Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Indexed(i) => i.to_string(),
        Color::Reset => "reset".into(),
        named => format!("{named:?}").to_ascii_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_role_is_settable_and_listed_once() {
        let mut t = Theme::default();
        let mut seen = std::collections::HashSet::new();
        for (role, _) in ROLES {
            assert!(seen.insert(*role), "{role} listed twice");
            assert!(t.slot(role).is_some(), "{role} is not a theme slot");
        }
        assert!(t.slot("nonsense").is_none());
    }

    #[test]
    fn colour_names_read_back() {
        for c in [
            Color::Cyan,
            Color::DarkGray,
            Color::LightMagenta,
            Color::Indexed(238),
            Color::Rgb(0xaa, 0x0b, 0xcc),
            Color::Reset,
        ] {
            assert_eq!(parse_color(&color_name(c)), Some(c), "{c:?}");
        }
    }

    #[test]
    fn overrides_set_roles_and_report_unknowns() {
        let mut o = BTreeMap::new();
        o.insert("bad".to_string(), "#ff0000".to_string());
        o.insert("nope".to_string(), "red".to_string());
        o.insert("ok".to_string(), "not-a-colour".to_string());
        let (t, errors) = Theme::with_overrides(&o);
        assert_eq!(t.bad, Color::Rgb(255, 0, 0));
        assert_eq!(t.ok, Theme::default().ok);
        assert_eq!(errors.len(), 2, "{errors:?}");
    }
}
