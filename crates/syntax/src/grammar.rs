//! The grammar of `language.md` §2 as recursive descent over [`Parser`].
//!
//! Recovery: after the first error in a construct, the rest of it is skipped
//! silently (one problem, one diagnostic) up to a token that resynchronises
//! the parse: the construct's own closer, the next parameter, or a
//! top-level starter (`step`, `~step`, `require`, an attribute `[` opening a
//! line). Lexical error tokens already have a diagnostic: where they stand in
//! for a name or a separator they are consumed without another one.

use crate::SyntaxKind::{self, *};
use crate::parser::{MAX_DEPTH, Parser};

pub(crate) fn source_file(p: &mut Parser<'_>) {
    let m = p.start();
    while !p.at_eof() {
        match p.current() {
            L_BRACK if p.nth(1) == FLOW_KW => flow_attribute(p),
            L_BRACK | STEP_KW | TILDE => step(p),
            REQUIRE_KW => require(p),
            _ => {
                p.error_and_bump("`step`, `require` or an attribute");
                skip_until(p, &[]);
            }
        }
    }
    m.complete(p, SOURCE_FILE);
}

/// A token where a new top-level clause surely starts.
fn at_top_level_start(p: &Parser<'_>) -> bool {
    match p.current() {
        EOF => true,
        // A keyword misused inside a clause (`step = 0.1`, `x = require,`)
        // cannot begin a new one.
        STEP_KW | REQUIRE_KW => !matches!(p.nth(1), EQ | ARROW | COMMA | R_PAREN | R_BRACK),
        // A lone `~` is more likely a typo than the start of a `~step`.
        TILDE => p.nth(1) == STEP_KW,
        L_BRACK => {
            p.at_line_start() && (p.nth(1) == FLOW_KW || (p.nth(1) == IDENT && p.nth(2) == EQ))
        }
        _ => false,
    }
}

/// Wraps tokens in one error node, without a new diagnostic, up to one of
/// `stops` outside brackets or a top-level starter.
fn skip_until(p: &mut Parser<'_>, stops: &[SyntaxKind]) {
    if at_top_level_start(p) || stops.contains(&p.current()) {
        return;
    }
    let m = p.start();
    let mut nesting = 0u32;
    while !at_top_level_start(p) {
        let kind = p.current();
        if nesting == 0 && stops.contains(&kind) {
            break;
        }
        match kind {
            L_BRACK | L_PAREN => nesting += 1,
            R_BRACK | R_PAREN if nesting > 0 => nesting -= 1,
            _ => {}
        }
        p.bump();
    }
    m.complete(p, ERROR_NODE);
}

/// After a broken `[ ... ]`: skips to its `]` (consumed) or a top-level starter.
fn skip_to_closing_bracket(p: &mut Parser<'_>) {
    skip_until(p, &[R_BRACK]);
    p.eat(R_BRACK);
}

fn flow_attribute(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(); // `[`
    p.bump(); // `flow`
    let complete = p.expect(COLON)
        && name(p, NAME, "an attribute key", &[EQ])
        && p.expect(EQ)
        && expression(p)
        && p.expect(R_BRACK);
    if !complete {
        skip_to_closing_bracket(p);
    }
    m.complete(p, FLOW_ATTRIBUTE);
}

fn require(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(); // `require`
    let follow = [COMMA, SEMICOLON];
    let mut complete = name(p, NAME, "a file name", &follow);
    while complete && p.eat(COMMA) {
        complete = name(p, NAME, "a file name", &follow);
    }
    if complete && !p.at(SEMICOLON) {
        p.error_missing_token(&[COMMA, SEMICOLON]);
        complete = false;
    }
    if !complete {
        skip_until(p, &[SEMICOLON]);
    }
    p.eat(SEMICOLON);
    m.complete(p, REQUIRE);
}

/// A step attribute `[key = value]`. False after a reported error.
fn attribute(p: &mut Parser<'_>) -> bool {
    let m = p.start();
    p.bump(); // `[`
    let complete = name(p, NAME, "an attribute key", &[EQ])
        && p.expect(EQ)
        && expression(p)
        && p.expect(R_BRACK);
    if !complete {
        skip_to_closing_bracket(p);
    }
    m.complete(p, ATTRIBUTE);
    complete
}

fn step(p: &mut Parser<'_>) {
    let m = p.start();
    let first = p.pos();
    let mut attributes_ok = true;
    while p.at(L_BRACK) && p.nth(1) != FLOW_KW {
        attributes_ok &= attribute(p);
    }
    if !p.at(STEP_KW) && !p.at(TILDE) {
        // A broken attribute already has its diagnostic (`[1, 2]` is one problem).
        if attributes_ok {
            let range = p.range_since(first);
            p.error_at(
                range,
                format!("attribute is not attached to a step (found {})", p.found()),
            );
        }
        m.complete(p, ERROR_NODE);
        return;
    }
    let mut header_ok = true;
    if p.at(TILDE) {
        if p.nth(1) == STEP_KW && !p.next_is_adjacent() {
            let range = p.current_range();
            p.error_at(
                range,
                "`~` must be written directly before `step`".to_string(),
            );
        }
        p.bump();
        if !p.at(STEP_KW) {
            p.error_missing("`step` after `~`");
            header_ok = false;
        }
    }
    header_ok = header_ok
        && p.expect(STEP_KW)
        && name(p, NAME, "a step name", &[RUNS_KW])
        && p.expect(RUNS_KW)
        && package_path(p);
    if !header_ok {
        skip_until(p, &[L_PAREN, AFTER_KW, ON_KW, SEMICOLON]);
    }
    let mut first_clause = true;
    while p.at(AFTER_KW) || p.at(ON_KW) {
        if !first_clause {
            let range = p.current_range();
            let message = format!(
                "expected `(`, found {}: a step has one `after` or `on` list",
                p.found()
            );
            p.error_at(range, message);
        }
        first_clause = false;
        dependency_clause(p);
    }
    if !p.at(L_PAREN) {
        if header_ok {
            p.error_missing("`(`");
        }
        // Resume at a parameter list further on (`step A runs P after B C (x = 1)`).
        if !p.at(PRE_KW) && !p.at(POST_KW) {
            skip_until(p, &[L_PAREN, SEMICOLON, PRE_KW, POST_KW]);
        }
    }
    if p.at(L_PAREN) {
        param_block(p);
    }
    while p.at(PRE_KW) || p.at(POST_KW) {
        let section = p.start();
        p.bump();
        if !p.expect(CODE_BLOCK) {
            // `post ruby;`: the rest up to the end of the step is part of the problem.
            skip_until(p, &[SEMICOLON, PRE_KW, POST_KW]);
        }
        section.complete(p, CODE_SECTION);
    }
    p.eat(SEMICOLON);
    m.complete(p, STEP);
}

/// `IDENT` wrapped in a `kind` node (`NAME` or `NAME_REF`). A keyword followed
/// by a token of `follow` is a reserved word used as a name (`step = 0.1`):
/// it is reported at the keyword and parsing goes on as if it were a name.
fn name(p: &mut Parser<'_>, kind: SyntaxKind, what: &str, follow: &[SyntaxKind]) -> bool {
    if p.at(IDENT) {
        let m = p.start();
        p.bump();
        m.complete(p, kind);
        return true;
    }
    if p.current().is_keyword() && follow.contains(&p.nth(1)) {
        let range = p.current_range();
        let message = format!(
            "expected {what}, found {}: keywords are reserved",
            p.found()
        );
        p.error_at(range, message);
        p.bump_error_silently();
        return true;
    }
    p.error_missing(what)
}

fn package_path(p: &mut Parser<'_>) -> bool {
    if !p.at(IDENT) && !p.at(ERROR) {
        return p.error_missing("a package name");
    }
    let m = p.start();
    if !p.eat(IDENT) {
        // A lexical error token (`Пакет.Метод`) stands in for the first name.
        p.eat_error_tokens();
    }
    let mut complete = true;
    while complete && p.eat(DOT) {
        if !p.eat(IDENT) {
            // A lexical error token (`P.Метод`) stands in for the name.
            complete = p.error_missing("a name after `.`");
        }
    }
    m.complete(p, PACKAGE_PATH);
    complete
}

fn dependency_clause(p: &mut Parser<'_>) {
    let m = p.start();
    let kind = if p.at(AFTER_KW) {
        AFTER_CLAUSE
    } else {
        ON_CLAUSE
    };
    p.bump();
    let follow = [COMMA, L_PAREN];
    let mut complete = name(p, NAME_REF, "a step name", &follow);
    while complete && p.eat(COMMA) {
        complete = name(p, NAME_REF, "a step name", &follow);
    }
    if !complete {
        skip_until(p, &[L_PAREN, AFTER_KW, ON_KW, SEMICOLON]);
    }
    m.complete(p, kind);
}

fn param_block(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(); // `(`
    let mut seen_params = false;
    let mut seen_exec = false;
    while !p.at(R_PAREN) && !at_top_level_start(p) {
        let label = p.at_section_label();
        match label {
            Some(APP_KW) if seen_params => {
                let range = p.current_range();
                p.error_at(
                    range,
                    "the `app:` section must open the parameter list".to_string(),
                );
            }
            Some(EXEC_KW) if seen_exec => {
                let range = p.current_range();
                p.error_at(range, "the `exec:` section is given twice".to_string());
            }
            _ => {}
        }
        seen_exec |= label == Some(EXEC_KW);
        seen_params = true;
        param_section(p, label);
    }
    p.expect(R_PAREN);
    m.complete(p, PARAM_BLOCK);
}

/// Whether the `n`th token from here starts a parameter: `name =`, `name <-`
/// or `:name`, where the name may also be a keyword or a lexical error token
/// (reported elsewhere), or starts a section (`app:`, `exec:`).
fn at_param_start_at(p: &Parser<'_>, n: usize) -> bool {
    let n = if p.nth(n) == COLON {
        if p.nth(n + 1) == IDENT {
            return true;
        }
        n + 1
    } else {
        n
    };
    let name_like = matches!(p.nth(n), IDENT | ERROR) || p.nth(n).is_keyword();
    (name_like && matches!(p.nth(n + 1), EQ | ARROW))
        || (p.nth(n) == IDENT && p.nth(n + 1) == COLON && matches!(p.nth_text(n), "app" | "exec"))
}

fn at_param_start(p: &Parser<'_>) -> bool {
    at_param_start_at(p, 0)
}

/// The end of a parameter section: `)`, a new section, or a top-level starter.
fn at_section_end(p: &Parser<'_>) -> bool {
    p.at(R_PAREN) || at_top_level_start(p) || p.at_section_label().is_some()
}

fn param_section(p: &mut Parser<'_>, label: Option<SyntaxKind>) {
    let m = p.start();
    if let Some(keyword) = label {
        p.bump_as(keyword);
        p.bump(); // `:`
        if label == Some(EXEC_KW) && (p.at(R_PAREN) || at_top_level_start(p)) {
            p.error_missing("a parameter after `exec:`");
        }
    }
    let stops = [COMMA, R_PAREN];
    loop {
        if at_section_end(p) {
            break;
        }
        let param_ok = if p.at(IDENT) || p.at(COLON) || at_param_start(p) {
            param(p)
        } else {
            p.error_and_bump("a parameter");
            false
        };
        if !param_ok {
            skip_to_next_param(p, &stops);
        }
        if p.eat(COMMA) {
            continue;
        }
        if at_section_end(p) {
            break;
        }
        if at_param_start(p) {
            // After a broken parameter, the skip stopped here: nothing new to report.
            if param_ok {
                p.error_missing_token(&[COMMA, R_PAREN]);
            }
            continue;
        }
        p.error_and_bump("`,` or `)`");
        skip_to_next_param(p, &stops);
        p.eat(COMMA);
    }
    m.complete(p, PARAM_SECTION);
}

/// Skips silently to a `stops` token outside brackets, or to where the next
/// parameter starts (also `, name =`: the comma is left for the section), or
/// to a top-level starter. Parameters cannot stand inside brackets, so a
/// parameter start ends the skip even there (a stray `(` cannot hide them).
fn skip_to_next_param(p: &mut Parser<'_>, stops: &[SyntaxKind]) {
    let at_stop = |p: &Parser<'_>, nesting: u32| {
        at_top_level_start(p)
            || at_param_start(p)
            || (p.at(COMMA) && at_param_start_at(p, 1))
            || (nesting == 0 && stops.contains(&p.current()))
    };
    if at_stop(p, 0) {
        return;
    }
    let m = p.start();
    let mut nesting = 0u32;
    while !at_stop(p, nesting) {
        match p.current() {
            L_BRACK | L_PAREN => nesting += 1,
            R_BRACK | R_PAREN if nesting > 0 => nesting -= 1,
            _ => {}
        }
        p.bump();
    }
    m.complete(p, ERROR_NODE);
}

/// `[:] name (= | <-) [sweep] expression`. False after a reported error.
fn param(p: &mut Parser<'_>) -> bool {
    let m = p.start();
    p.eat(COLON);
    let complete = name(p, NAME, "a parameter name", &[EQ, ARROW])
        && {
            if p.at(EQ) || p.at(ARROW) {
                p.bump();
                true
            } else {
                p.error_missing("`=` or `<-`")
            }
        }
        && {
            p.eat(SWEEP_KW);
            expression(p)
        };
    m.complete(p, PARAM);
    complete
}

fn at_expression_start(p: &Parser<'_>) -> bool {
    p.current().is_literal() || matches!(p.current(), L_BRACK | IDENT)
}

/// One expression. False (with an error reported) when none is here.
pub(crate) fn expression(p: &mut Parser<'_>) -> bool {
    match p.current() {
        kind if kind.is_literal() => {
            let m = p.start();
            p.bump();
            m.complete(p, LITERAL);
            true
        }
        L_BRACK => {
            list(p);
            true
        }
        // A lexical error token with members (`шаг.outs`) is a reference
        // whose first name is broken; alone it is consumed by `error_missing`.
        IDENT => {
            reference(p);
            true
        }
        ERROR if matches!(p.nth(1), DOT | L_BRACK) => {
            reference(p);
            true
        }
        _ => p.error_missing("an expression"),
    }
}

/// Whether nesting may go one level deeper; if not, the bracketed text is
/// kept flat in an error node with one diagnostic.
fn enter_nesting(p: &mut Parser<'_>) -> bool {
    if p.depth < MAX_DEPTH {
        p.depth += 1;
        return true;
    }
    let range = p.current_range();
    p.error_at(
        range,
        format!("brackets nested deeper than {MAX_DEPTH} levels"),
    );
    let m = p.start();
    p.bump(); // `[`
    let mut nesting = 1u32;
    while nesting > 0 && !at_top_level_start(p) {
        match p.current() {
            L_BRACK => nesting += 1,
            R_BRACK => nesting -= 1,
            _ => {}
        }
        p.bump();
    }
    m.complete(p, ERROR_NODE);
    false
}

fn list(p: &mut Parser<'_>) {
    if !enter_nesting(p) {
        return;
    }
    let m = p.start();
    p.bump(); // `[`
    if !p.eat(R_BRACK) {
        list_elements(p);
    }
    p.depth -= 1;
    m.complete(p, LIST_EXPR);
}

/// The elements of a list and its `]`. A parameter that starts a line
/// closes the list implicitly, with one "missing `]`" (`x = [1, 2,` then
/// `y = 3` on the next line), and so does a top-level clause.
fn list_elements(p: &mut Parser<'_>) {
    let param_line_at =
        |p: &Parser<'_>, n: usize| at_param_start_at(p, n) && p.nth_at_line_start(n);
    loop {
        if param_line_at(p, 0) || at_top_level_start(p) {
            p.error_missing_token(&[R_BRACK]);
            return;
        }
        let element_ok = expression(p);
        if !element_ok {
            skip_to_next_param(p, &[COMMA, R_BRACK, R_PAREN]);
        }
        // The separator; `reported` once an error in it has a diagnostic.
        let mut reported = false;
        loop {
            // Lexical garbage between elements already has its diagnostic.
            reported |= p.eat_error_tokens();
            match p.current() {
                COMMA if param_line_at(p, 1) => {
                    p.error_missing_token(&[R_BRACK]);
                    return;
                }
                COMMA => {
                    let comma = p.current_range();
                    p.bump();
                    if p.at(R_BRACK) {
                        if element_ok && !reported {
                            p.error_at(
                                comma,
                                "expected an expression, found `]`: lists do not allow a trailing comma"
                                    .to_string(),
                            );
                        }
                        p.bump();
                        return;
                    }
                    break;
                }
                R_BRACK => {
                    p.bump();
                    return;
                }
                _ if at_expression_start(p) && !param_line_at(p, 0) && !at_top_level_start(p) => {
                    if !reported {
                        p.error_missing_token(&[COMMA, R_BRACK]);
                    }
                    break;
                }
                _ if p.at(R_PAREN) || at_param_start(p) || at_top_level_start(p) => {
                    if !reported {
                        p.error_missing_token(&[COMMA, R_BRACK]);
                    }
                    return;
                }
                _ => {
                    // `[1 = 2, 3]`: skip to the next element or the `]`.
                    if !reported {
                        p.error_and_bump("`,` or `]`");
                        reported = true;
                    }
                    skip_to_next_param(p, &[COMMA, R_BRACK, R_PAREN]);
                }
            }
        }
    }
}

fn reference(p: &mut Parser<'_>) {
    let m = p.start();
    segment(p);
    while p.at(DOT) {
        p.bump();
        if p.at(IDENT) || p.at(ERROR) {
            segment(p);
        } else {
            p.error_missing("a member name after `.`");
            break;
        }
    }
    m.complete(p, REF_EXPR);
}

fn segment(p: &mut Parser<'_>) {
    let m = p.start();
    name(p, NAME_REF, "a name", &[]);
    if p.at(L_BRACK) && enter_nesting(p) {
        let indexer = p.start();
        p.bump(); // `[`
        if !(expression(p) && p.expect(R_BRACK)) {
            // `a[1, 2]` skips to its `]`; `a["x",` then `y = 1` leaves the comma.
            skip_to_next_param(p, &[R_BRACK, R_PAREN]);
            p.eat(R_BRACK);
        }
        p.depth -= 1;
        indexer.complete(p, INDEXER);
    }
    m.complete(p, SEGMENT);
}
