//! CQL tokens with their line and column, comments and whitespace dropped.
//! Unquoted identifiers are case-insensitive in CQL, so they are lowered
//! here; quoted ones keep their case.

use std::fmt;

/// A place in the schema file, 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default, serde::Serialize)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An unquoted word, lowercased.
    Word(String),
    /// A `"quoted"` identifier, as written inside the quotes.
    Quoted(String),
    /// A `'string'` or `$$string$$`, unescaped.
    Str(String),
    /// Numbers, uuids, blobs: kept as written.
    Number(String),
    /// One punctuation character.
    Punct(char),
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Word(w) => f.write_str(w),
            Tok::Quoted(q) => write!(f, "\"{q}\""),
            Tok::Str(_) => f.write_str("a string"),
            Tok::Number(n) => f.write_str(n),
            Tok::Punct(c) => write!(f, "'{c}'"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub pos: Pos,
}

/// Tokens of the whole text, or the position of an unterminated string or
/// comment.
pub fn tokens(text: &str) -> Result<Vec<Token>, (Pos, String)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1usize, 1usize);
    // Advances over n characters, keeping line and column.
    let step = |i: &mut usize, line: &mut usize, col: &mut usize, n: usize| {
        for _ in 0..n {
            if chars.get(*i) == Some(&'\n') {
                *line += 1;
                *col = 1;
            } else {
                *col += 1;
            }
            *i += 1;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let pos = Pos { line, col };
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            step(&mut i, &mut line, &mut col, 1);
        } else if (c == '-' && next == Some('-')) || (c == '/' && next == Some('/')) {
            while i < chars.len() && chars[i] != '\n' {
                step(&mut i, &mut line, &mut col, 1);
            }
        } else if c == '/' && next == Some('*') {
            step(&mut i, &mut line, &mut col, 2);
            loop {
                if i + 1 >= chars.len() {
                    return Err((pos, "comment not closed".into()));
                }
                if chars[i] == '*' && chars[i + 1] == '/' {
                    step(&mut i, &mut line, &mut col, 2);
                    break;
                }
                step(&mut i, &mut line, &mut col, 1);
            }
        } else if c == '\'' || c == '"' {
            let mut s = String::new();
            step(&mut i, &mut line, &mut col, 1);
            loop {
                match chars.get(i) {
                    None => {
                        let what = if c == '"' { "identifier" } else { "string" };
                        return Err((pos, format!("quoted {what} not closed")));
                    }
                    Some(&q) if q == c => {
                        if chars.get(i + 1) == Some(&c) {
                            s.push(c);
                            step(&mut i, &mut line, &mut col, 2);
                        } else {
                            step(&mut i, &mut line, &mut col, 1);
                            break;
                        }
                    }
                    Some(&other) => {
                        s.push(other);
                        step(&mut i, &mut line, &mut col, 1);
                    }
                }
            }
            let tok = if c == '"' {
                Tok::Quoted(s)
            } else {
                Tok::Str(s)
            };
            out.push(Token { tok, pos });
        } else if c == '$' && next == Some('$') {
            step(&mut i, &mut line, &mut col, 2);
            let mut s = String::new();
            loop {
                if i + 1 >= chars.len() {
                    return Err((pos, "$$ string not closed".into()));
                }
                if chars[i] == '$' && chars[i + 1] == '$' {
                    step(&mut i, &mut line, &mut col, 2);
                    break;
                }
                s.push(chars[i]);
                step(&mut i, &mut line, &mut col, 1);
            }
            out.push(Token {
                tok: Tok::Str(s),
                pos,
            });
        } else if c.is_ascii_digit()
            || (c == '-' && next.is_some_and(|n| n.is_ascii_digit() || n == '.'))
        {
            let start = i;
            step(&mut i, &mut line, &mut col, 1);
            while let Some(&d) = chars.get(i) {
                let prev = chars[i - 1];
                let numeric = chars[start..i]
                    .iter()
                    .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-'));
                let exponent = (d == '-' || d == '+') && matches!(prev, 'e' | 'E') && numeric;
                let uuid = d == '-' && is_uuid_dash(&chars, start, i);
                if d.is_ascii_alphanumeric() || d == '.' || exponent || uuid {
                    step(&mut i, &mut line, &mut col, 1);
                } else {
                    break;
                }
            }
            out.push(Token {
                tok: Tok::Number(chars[start..i].iter().collect()),
                pos,
            });
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while chars
                .get(i)
                .is_some_and(|d| d.is_alphanumeric() || *d == '_')
            {
                step(&mut i, &mut line, &mut col, 1);
            }
            let w: String = chars[start..i].iter().collect();
            out.push(Token {
                tok: Tok::Word(w.to_lowercase()),
                pos,
            });
        } else {
            step(&mut i, &mut line, &mut col, 1);
            out.push(Token {
                tok: Tok::Punct(c),
                pos,
            });
        }
    }
    Ok(out)
}

/// A dash inside a uuid literal (`123e4567-e89b-…`): hex digits so far.
fn is_uuid_dash(chars: &[char], start: usize, i: usize) -> bool {
    let so_far = &chars[start..i];
    so_far.len() >= 4
        && so_far.iter().all(|c| c.is_ascii_hexdigit() || *c == '-')
        && chars.get(i + 1).is_some_and(char::is_ascii_hexdigit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        tokens(s)
            .expect("lexes")
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn words_quotes_strings_and_comments() {
        assert_eq!(
            toks("CREATE \"My\"\"T\" -- x\n 'it''s' /* c */ $$a;b$$ 1.5e-3;"),
            vec![
                Tok::Word("create".into()),
                Tok::Quoted("My\"T".into()),
                Tok::Str("it's".into()),
                Tok::Str("a;b".into()),
                Tok::Number("1.5e-3".into()),
                Tok::Punct(';'),
            ]
        );
    }

    #[test]
    fn uuids_are_one_token() {
        assert_eq!(
            toks("123e4567-e89b-12d3-a456-426655440000"),
            vec![Tok::Number("123e4567-e89b-12d3-a456-426655440000".into())]
        );
    }

    #[test]
    fn positions_and_unclosed_input() {
        let t = tokens("a\n  b").expect("lexes");
        assert_eq!(t[1].pos, Pos { line: 2, col: 3 });
        assert_eq!(tokens("x 'open").unwrap_err().0, Pos { line: 1, col: 3 });
        assert!(tokens("/* open").is_err());
    }
}
