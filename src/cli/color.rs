//! Colour for text output: on for a terminal, off when piped, `--color
//! auto|always|never`; in `auto`, `NO_COLOR` turns it off and `CLICOLOR_FORCE` on
//! (anstream's rules). Text is styled once and the stream strips the styles when
//! colour is off.

use anstyle::{AnsiColor, Style};
use clap::ValueEnum;
use std::io::Write;

/// The `--color` switch.
#[derive(Clone, Copy, Debug, ValueEnum, Default, PartialEq, Eq)]
pub enum ColorWhen {
    /// Colour on a terminal unless `NO_COLOR` is set (or `CLICOLOR_FORCE` forces it).
    #[default]
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

impl ColorWhen {
    fn choice(self) -> anstream::ColorChoice {
        match self {
            ColorWhen::Auto => anstream::ColorChoice::Auto,
            ColorWhen::Always => anstream::ColorChoice::Always,
            ColorWhen::Never => anstream::ColorChoice::Never,
        }
    }
}

/// Writes `text` to stdout, coloured or not as `when` and the environment say.
pub fn print(when: ColorWhen, text: &str) {
    let mut out = anstream::AutoStream::new(std::io::stdout().lock(), when.choice());
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

fn decision_style(word: &str) -> Option<Style> {
    let color = match word {
        "deny" => AnsiColor::Red,
        "ask" => AnsiColor::Yellow,
        "allow" => AnsiColor::Green,
        _ => return None,
    };
    Some(Style::new().fg_color(Some(color.into())).bold())
}

/// Styles a rendered verdict (`report::render_text`): the decision and rule of each
/// diagnostic, the carets, `help:` lines and the closing summary.
pub fn style_report(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let bold = Style::new().bold();
    let caret = Style::new().fg_color(Some(AnsiColor::Cyan.into())).bold();
    let help = Style::new().fg_color(Some(AnsiColor::Green.into()));
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches('\n');
        let newline = &line[body.len()..];
        // `deny[BG207] privilege-escalation: message` or `deny: 3 findings`.
        let word_end = body.find(['[', ':']).unwrap_or(0);
        if let Some(style) = decision_style(&body[..word_end]) {
            let head_end = body.find(": ").map_or(body.len(), |i| i + 1);
            let (head, rest) = body.split_at(head_end);
            let (word, tail) = head.split_at(word_end);
            out.push_str(&format!(
                "{style}{word}{style:#}{bold}{tail}{bold:#}{rest}{newline}"
            ));
            continue;
        }
        if let Some(bar) = body.find(" | ")
            && body[bar + 3..].trim_start().starts_with('^')
            && body[..bar].trim().is_empty()
        {
            let (gutter, marks) = body.split_at(bar + 3);
            out.push_str(&format!("{gutter}{caret}{marks}{caret:#}{newline}"));
            continue;
        }
        if let Some(at) = body.find("= help:") {
            let (lead, rest) = body.split_at(at);
            out.push_str(&format!("{lead}{help}{rest}{help:#}{newline}"));
            continue;
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styling_only_adds_escapes() {
        let text = "deny[BG207] privilege-escalation: `sudo` runs\n  |\n1 | sudo ls\n  | ^^^^\n  = help: x\n\ndeny: 1 finding\n";
        let styled = style_report(text);
        assert!(styled.contains("\u{1b}["));
        let plain: String = anstream::adapter::strip_str(&styled).to_string();
        assert_eq!(plain, text);
    }
}
