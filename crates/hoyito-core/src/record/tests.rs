use super::*;
use crate::position::GameResult;
use crate::rules::Variant;

/// The rules tags are the options' table: every option is written, old
/// spellings read, and a bad value gets the one error text, with its line.
#[test]
fn rules_tags_are_the_options_table() {
    let text = Record::from_game(Game::new(Rules::standard(Variant::II))).write();
    for o in &crate::options::RULES_OPTIONS {
        assert!(text.contains(&format!("[{} \"", o.tag)), "{}", o.tag);
    }
    let rules = Record::read_rules(
        "[Variant \"Hoyito III\"]\n[SkipOrigin \"TRUE\"]\n[Direction \"per-move\"]\n[Holes \"8\"]\n\n",
    )
    .unwrap();
    assert_eq!(
        (
            rules.variant(),
            rules.skip_origin(),
            rules.direction(),
            rules.holes()
        ),
        (Variant::III, true, crate::DirectionRule::PerMove, 8)
    );
    let e = Record::read_rules("[Event \"x\"]\n[Direction \"sideways\"]\n\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "record line 2: bad value \"sideways\" for direction: expected fixed, per_player or per_move"
    );
    let e = Record::read_rules("[Holes \"x\"]\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "record line 1: bad value \"x\" for holes: expected a whole number from 4 to 12"
    );
}

/// A conceded round is written with its concession token and reads
/// back to the same match; a token after it starts the next round.
#[test]
fn conceded_rounds_read_back() {
    use crate::side::Side;
    let mut m = Match::new(Rules::standard(Variant::I));
    // Play until a side has captured 4 seeds: that side concedes and
    // keeps enough to play on (fewer than 4 would lose the match).
    let conceder = loop {
        let p = *m.current().position();
        if let Some(side) = Side::ALL.into_iter().find(|&s| p.captured()[s] >= 4) {
            break side;
        }
        m.play(p.legal_moves()[0]).unwrap();
    };
    m.concede(conceder).unwrap();
    assert!(m.can_start_next_round());
    m.start_next_round();
    m.play(m.current().position().legal_moves()[0]).unwrap();
    let text = Record::from_match(m.clone()).write();
    assert!(text.contains(&format!("concede:{}", conceder.name())), "{text}");
    let back = Record::read(&text).unwrap();
    let back = back.match_().unwrap();
    assert_eq!(back.round(), 2);
    assert_eq!(back.rounds()[0].conceded(), Some(conceder));
    assert_eq!(back.rounds()[0].position(), m.rounds()[0].position());
    assert_eq!(back.current().position(), m.current().position());
    // A concession after the end of the game is refused.
    let mut g = Game::new(Rules::standard(Variant::I));
    g.concede(Side::North).unwrap();
    let text = Record::from_game(g).write();
    assert!(Record::read(&text).unwrap().game().unwrap().is_over());
    let bad = format!("{}concede:south\n", text);
    assert!(Record::read(&bad).is_err());
}

/// Comments go after their moves, in their round; the record reads
/// back to the same match, and one without comments is unchanged.
#[test]
fn annotated_matches_read_back() {
    let mut m = Contest::new_match(Rules::new(Variant::II, 4).unwrap());
    for t in ["1", "2", "3"] {
        let tok = if m.current().position().legal_tokens().iter().any(|l| l == t) {
            t.to_string()
        } else {
            m.current().position().legal_tokens()[0].clone()
        };
        m.play_token(&tok).unwrap();
    }
    let rec = Record {
        tags: vec![],
        body: m,
    };
    assert_eq!(rec.write_annotated(&[]), rec.write());
    assert_eq!(rec.write_annotated(&[vec![None, None]]), rec.write());
    let text = rec.write_annotated(&[vec![None, Some("=+2 best\n}".into())]]);
    assert!(text.contains("\n2. "), "{text}");
    assert!(text.contains(" {=+2 best )}\n"), "{text}");
    let back = Record::read(&text).unwrap();
    assert_eq!(back.games()[0].moves(), rec.games()[0].moves());
    assert_eq!(back.write(), rec.write());
}

#[test]
fn read_rules_reads_the_tags_and_no_move() {
    let text = "[Variant \"II\"]\n[Holes \"5\"]\n[Seeds \"9\"]\n[CaptureSide \"opponent\"]\n\n9 9 9\n";
    let rules = Record::read_rules(text).unwrap();
    assert_eq!(
        (rules.variant(), rules.holes(), rules.seeds()),
        (Variant::II, 5, 9)
    );
    assert_eq!(rules.capture_side(), crate::CaptureSide::Opponent);
    // The moves are not replayed: `9` is no hole of 2×5, which read refuses.
    assert!(Record::read(text).is_err());
    // Bad tags and bad rules are still errors, with the tag's line.
    assert_eq!(Record::read_rules("[Variant \"IV\"]").unwrap_err().line, 1);
    assert!(Record::read_rules("[Holes \"13\"]").is_err());
}

#[test]
fn tag_parsing() {
    assert_eq!(
        parse_tag("[Event \"a \\\"b\\\"\"]").unwrap(),
        ("Event".into(), "a \"b\"".into())
    );
    assert!(parse_tag("[Event a]").is_err());
    assert!(parse_tag("[ \"a\"]").is_err());
}

#[test]
fn body_words() {
    let mut c = false;
    assert_eq!(split_words("1. 3 {x y} 4 {z", &mut c), vec!["1.", "3", "4"]);
    assert!(c);
    assert_eq!(split_words("} 5", &mut c), vec!["5"]);
}

#[test]
fn mismatched_result_is_rejected() {
    // After one move the game goes on: a claimed winner contradicts it.
    let mut g = Game::new(Rules::standard(Variant::I));
    g.play_token("3").unwrap();
    assert!(!g.is_over());
    let err = Record::read("[Variant \"I\"]\n[Result \"north\"]\n\n3\n").unwrap_err();
    assert_eq!(err.line, 2, "{err}");
    assert!(err.reason.contains("Result says \"north\""), "{err}");
    // A finished game whose Result names the other side.
    let rules = Rules::standard(Variant::I);
    let start = Position::from_notation(rules, "0,0,0,0,0,1/3,0,0,0,0,0 s 22-22").unwrap();
    let mut g = Game::from_position(start);
    g.play_token("6").unwrap();
    let result = g
        .position()
        .outcome()
        .expect("the capture ends the game")
        .result();
    let mut record = Record::from_game(g).write();
    let other = GameResult::ALL.into_iter().find(|r| *r != result).unwrap();
    record = record.replace(
        &format!("[Result \"{result}\"]"),
        &format!("[Result \"{other}\"]"),
    );
    assert!(Record::read(&record).unwrap_err().reason.contains("Result says"));
    assert!(Record::read("[Variant \"IV\"]\n").is_err());
    assert!(Record::read("[Variant \"I\"]\n\n9\n").is_err());
}
