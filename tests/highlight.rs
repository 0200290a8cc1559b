use cqlmodel::highlight::*;
#[test]
fn dump() {
    assert!(cql_syntax_ok());
    let p = Palette::default();
    let t = std::fs::read_to_string("/tmp/sample.cql").unwrap();
    for l in highlight_cql(&t, &p) {
        let s: Vec<String> = l.spans.iter().map(|s| format!("[{}|{:?}{}]", s.content, s.style.fg.unwrap_or(ratatui::style::Color::Reset), if s.style.add_modifier.is_empty() {""} else {"*"})).collect();
        println!("{}", s.join(""));
    }
}
