//! Decoders for quoted text: double quotes, `$'...'` and heredoc bodies, exactly as
//! bash reads them.

/// The text of a heredoc body with an unquoted delimiter and no expansions: a
/// backslash escapes only `$`, `` ` ``, `\\` and newline there.
pub fn decode_heredoc(body: &str) -> String {
    decode_backslashes(body, &['$', '`', '\\'])
}

/// Inside double quotes a backslash only escapes `$`, `` ` ``, `"`, `\\` and newline.
pub fn decode_double_quoted(content: &str) -> String {
    decode_backslashes(content, &['$', '`', '"', '\\'])
}

/// Removes the backslash before the characters in `escapable` and backslash-newline
/// pairs; any other backslash stays.
fn decode_backslashes(content: &str, escapable: &[char]) -> String {
    let mut out = String::with_capacity(content.len());
    let mut chars = content.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some(&next) if escapable.contains(&next) => {
                out.push(next);
                chars.next();
            }
            Some('\n') => {
                chars.next();
            }
            _ => out.push('\\'),
        }
    }
    out
}

/// Decodes the inside of `$'...'` as bash does: `\n`, `\t`, ..., `\xHH`, octal `\nnn`,
/// `\uHHHH`, `\UHHHHHHHH`, `\cX`. A NUL ends the string, as in bash.
pub fn decode_ansi_c(content: &str) -> String {
    let chars: Vec<char> = content.chars().collect();
    let mut out = String::with_capacity(content.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c != '\\' || i >= chars.len() {
            out.push(c);
            continue;
        }
        let e = chars[i];
        i += 1;
        let decoded: Option<u32> = match e {
            'a' => Some(7),
            'b' => Some(8),
            'e' | 'E' => Some(27),
            'f' => Some(12),
            'n' => Some(10),
            'r' => Some(13),
            't' => Some(9),
            'v' => Some(11),
            '\\' => Some('\\' as u32),
            '\'' => Some('\'' as u32),
            '"' => Some('"' as u32),
            '?' => Some('?' as u32),
            '0'..='7' => {
                let mut value = e.to_digit(8).unwrap_or(0);
                let mut n = 1;
                while n < 3 && i < chars.len() && chars[i].is_digit(8) {
                    value = value * 8 + chars[i].to_digit(8).unwrap_or(0);
                    i += 1;
                    n += 1;
                }
                Some(value & 0xff)
            }
            'x' | 'u' | 'U' => {
                let max = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let mut value: u32 = 0;
                let mut n = 0;
                while n < max && i < chars.len() && chars[i].is_ascii_hexdigit() {
                    value = value * 16 + chars[i].to_digit(16).unwrap_or(0);
                    i += 1;
                    n += 1;
                }
                if n == 0 {
                    out.push('\\');
                    out.push(e);
                    continue;
                }
                if e == 'x' && value >= 0x80 {
                    // A raw byte that is not valid UTF-8 on its own: keep it visible
                    // rather than invent a character bash would not produce.
                    out.push(char::REPLACEMENT_CHARACTER);
                    continue;
                }
                Some(value)
            }
            'c' if i < chars.len() => {
                let x = chars[i];
                i += 1;
                // bash: toupper(X) & 0x1f (`\c?` is DEL).
                if x == '?' {
                    Some(0x7f)
                } else {
                    Some((x.to_ascii_uppercase() as u32) & 0x1f)
                }
            }
            _ => {
                out.push('\\');
                out.push(e);
                continue;
            }
        };
        match decoded {
            Some(0) => break,
            Some(v) => out.push(char::from_u32(v).unwrap_or(char::REPLACEMENT_CHARACTER)),
            None => {}
        }
    }
    out
}
