use super::*;
use crate::Rules;

#[test]
fn the_table_is_the_spec() {
    // One entry per field, in field order, each naming itself.
    let ids = [
        OptionId::Variant,
        OptionId::Holes,
        OptionId::Seeds,
        OptionId::SkipOrigin,
        OptionId::Direction,
        OptionId::TwoHoleOpening,
        OptionId::Repetition,
        OptionId::CaptureSide,
    ];
    assert_eq!(RULES_OPTIONS.map(|o| o.id), ids);
    for o in &RULES_OPTIONS {
        assert_eq!(RulesOption::of(o.id), o);
        assert_eq!(RulesOption::named(o.name), Some(o));
        assert_eq!(RulesOption::tagged(o.tag), Some(o));
        assert_eq!(RulesOption::find(o.tag), Some(o));
        assert_eq!(RulesOption::find(&o.flag()[2..]), Some(o));
        assert_eq!(RulesOption::find(&o.tag.to_ascii_lowercase()), Some(o));
        // The tag is the name in camel case.
        let camel: String = o.name.split('_').map(capitalised).collect::<Vec<_>>().concat();
        assert_eq!(o.tag, camel);
        assert!(o.section.starts_with('§'));
        // The default is a value the option takes, written back the same.
        let mut spec = RulesSpec::default();
        spec.set_option(o.id, &o.default_value().to_string()).unwrap();
        assert_eq!(spec, RulesSpec::default());
    }
    assert_eq!(Variant::NAMES, Variant::ALL.map(Variant::name));
    assert_eq!(
        DirectionRule::NAMES,
        DirectionRule::ALL.iter().map(|d| d.name()).collect::<Vec<_>>()
    );
    assert_eq!(
        Repetition::NAMES,
        Repetition::ALL.iter().map(|d| d.name()).collect::<Vec<_>>()
    );
    assert_eq!(
        CaptureSide::NAMES,
        CaptureSide::ALL.iter().map(|d| d.name()).collect::<Vec<_>>()
    );
    assert_eq!(
        option_names(),
        "variant, holes, seeds, skip_origin, direction, two_hole_opening, repetition, capture_side"
    );
}

/// The one seed limit: 30 a hole is 240 on the smallest board; on larger
/// ones the total decides.
#[test]
fn seed_limits() {
    assert_eq!(MAX_SEEDS_PER_HOLE, 30);
    let mut spec = RulesSpec::default();
    spec.set("holes", "4").unwrap();
    spec.set("seeds", "30").unwrap();
    assert!(Rules::try_from(spec).is_ok());
    assert_eq!(
        spec.set("seeds", "31").unwrap_err().to_string(),
        "bad value \"31\" for seeds: expected a whole number from 1 to 30"
    );
    spec.set("holes", "12").unwrap();
    spec.set("seeds", "11").unwrap();
    assert!(Rules::try_from(spec)
        .unwrap_err()
        .to_string()
        .contains("at most 240"));
    for bad in ["0", "-1", "x", "", "256", "99999999999"] {
        assert!(spec.set("seeds", bad).is_err(), "{bad}");
    }
}

#[test]
fn every_spelling_sets_the_option() {
    let mut spec = RulesSpec::default();
    for (name, value) in [
        ("variant", "Hoyito II"),
        ("Holes", " 8 "),
        ("SEEDS", "5"),
        ("skip-origin", "yes"),
        ("Direction", "per-player"),
        ("TwoHoleOpening", "TRUE"),
        ("repetition", "OWN_ROW"),
        ("captureside", "opponent"),
    ] {
        spec.set(name, value).unwrap();
    }
    let want = RulesSpec {
        variant: Variant::II,
        holes: 8,
        seeds: 5,
        skip_origin: true,
        direction: DirectionRule::PerPlayer,
        two_hole_opening: true,
        repetition: Repetition::OwnRow,
        capture_side: CaptureSide::Opponent,
    };
    assert_eq!(spec, want);
    for flag in ["false", "no", "0", "False"] {
        spec.set("skip_origin", flag).unwrap();
        assert!(!spec.skip_origin);
    }
    let shown: Vec<String> = want.values().map(|(o, v)| format!("{}={v}", o.name)).collect();
    assert_eq!(
        shown.join(" "),
        "variant=II holes=8 seeds=5 skip_origin=true direction=per_player \
         two_hole_opening=true repetition=own_row capture_side=opponent"
    );
}

/// The error texts every front end shows.
#[test]
fn error_texts() {
    let mut spec = RulesSpec::default();
    let e = |r: Result<(), RulesOptionError>| r.unwrap_err().to_string();
    assert_eq!(
        e(spec.set("colour", "red")),
        "unknown rules option \"colour\": expected one of variant, holes, seeds, skip_origin, \
         direction, two_hole_opening, repetition, capture_side"
    );
    assert_eq!(
        e(spec.set("variant", "IV")),
        "bad value \"IV\" for variant: expected I, II or III"
    );
    assert_eq!(
        e(spec.set("direction", "x")),
        "bad value \"x\" for direction: expected fixed, per_player or per_move"
    );
    assert_eq!(
        e(spec.set("repetition", "odd")),
        "bad value \"odd\" for repetition: expected even or own_row"
    );
    assert_eq!(
        e(spec.set("capture_side", "mine")),
        "bad value \"mine\" for capture_side: expected any or opponent"
    );
    assert_eq!(
        e(spec.set("holes", "13")),
        "bad value \"13\" for holes: expected a whole number from 4 to 12"
    );
    assert_eq!(
        e(spec.set("skip_origin", "maybe")),
        "bad value \"maybe\" for skip_origin: expected true or false"
    );
    assert_eq!(
        e(spec.set_value(OptionId::Holes, OptionValue::Flag(true))),
        "bad value \"true\" for holes: expected a whole number from 4 to 12"
    );
    // The enums' own parsers say the same.
    assert_eq!(
        "x".parse::<DirectionRule>().unwrap_err().to_string(),
        "bad value \"x\" for direction: expected fixed, per_player or per_move"
    );
    // A huge value or name comes back as its first characters only.
    let huge = "9".repeat(10_000);
    assert_eq!(
        e(spec.set("holes", &huge)),
        format!(
            "bad value \"{}…\" for holes: expected a whole number from 4 to 12",
            "9".repeat(32)
        )
    );
    assert!(e(spec.set(&huge, "1")).starts_with(&format!("unknown rules option \"{}…\"", "9".repeat(32))));
    assert!(e(spec.set("variant", &"é".repeat(100))).contains(&format!("\"{}…\"", "é".repeat(32))));
    assert_eq!(spec, RulesSpec::default(), "a refused value changes nothing");
}

#[cfg(feature = "serde")]
#[test]
fn json_goes_through_the_table() {
    let spec: RulesSpec =
        serde_json::from_str(r#"{"variant":"III","holes":8,"skip_origin":true,"direction":"per_move"}"#)
            .unwrap();
    assert_eq!(
        (
            spec.variant,
            spec.holes,
            spec.skip_origin,
            spec.direction,
            spec.seeds
        ),
        (Variant::III, 8, true, DirectionRule::PerMove, 4)
    );
    let back: RulesSpec = serde_json::from_str(&serde_json::to_string(&spec).unwrap()).unwrap();
    assert_eq!(back, spec);
    // Serialised keys are the table's names, in its order.
    let keys: Vec<String> = serde_json::to_value(spec)
        .unwrap()
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    let mut names: Vec<&str> = RULES_OPTIONS.iter().map(|o| o.name).collect();
    names.sort_unstable();
    assert_eq!(keys, names);
    assert_eq!(
        serde_json::from_str::<RulesSpec>("{}").unwrap(),
        RulesSpec::default()
    );
    // An old spelling (an alias) is accepted in JSON as in every text front end.
    let spec: RulesSpec = serde_json::from_str(r#"{"direction":"per-player","variant":"2"}"#).unwrap();
    assert_eq!(
        (spec.direction, spec.variant),
        (DirectionRule::PerPlayer, Variant::II)
    );
    for (json, says) in [
        (
            r#"{"colour":"red"}"#,
            "unknown rules option \"colour\": expected one of variant, holes",
        ),
        (
            r#"{"holes":300}"#,
            "bad value \"300\" for holes: expected a whole number from 4 to 12",
        ),
        (r#"{"holes":"6"}"#, "bad value \"6\" for holes"),
        (r#"{"holes":-1}"#, "bad value \"-1\" for holes"),
        (r#"{"holes":6.5}"#, "bad value \"6.5\" for holes"),
        (
            r#"{"skip_origin":1}"#,
            "bad value \"1\" for skip_origin: expected true or false",
        ),
        (r#"{"direction":2}"#, "bad value \"2\" for direction"),
        (
            r#"{"capture_side":null}"#,
            "bad value \"null\" for capture_side: expected any or opponent",
        ),
        (
            r#"{"variant":"IV"}"#,
            "bad value \"IV\" for variant: expected I, II or III",
        ),
        ("[]", "an object of rules options"),
    ] {
        let e = serde_json::from_str::<RulesSpec>(json).unwrap_err().to_string();
        assert!(
            e.starts_with(says) || json == "[]" && e.contains(says),
            "{json}: {e}"
        );
    }
    // A count out of its limits is read, and refused with the rules, in the same words.
    let spec: RulesSpec = serde_json::from_str(r#"{"holes":13}"#).unwrap();
    assert_eq!(
        Rules::try_from(spec).unwrap_err().to_string(),
        "bad value \"13\" for holes: expected a whole number from 4 to 12"
    );
    let e = serde_json::from_str::<Rules>(r#"{"seeds":0}"#).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("bad value \"0\" for seeds: expected a whole number from 1 to 30"),
        "{e}"
    );
    // Rules go through the spec, and are validated.
    let e = serde_json::from_str::<Rules>(r#"{"holes":12,"seeds":11}"#).unwrap_err();
    assert!(e.to_string().contains("at most 240"), "{e}");
}

#[cfg(feature = "serde")]
#[test]
fn metadata_json() {
    let v = serde_json::to_value(RULES_OPTIONS).unwrap();
    assert_eq!(
        v[4],
        serde_json::json!({
            "name": "direction", "tag": "Direction", "flag": "--direction", "type": "choice",
            "values": ["fixed", "per_player", "per_move"], "default": "fixed", "section": "§6.1",
            "meaning": RulesOption::of(OptionId::Direction).meaning,
        })
    );
    assert_eq!(
        (
            v[1]["min"].as_u64(),
            v[1]["max"].as_u64(),
            v[1]["default"].as_u64()
        ),
        (Some(4), Some(12), Some(6))
    );
    assert_eq!(
        (v[3]["type"].as_str(), v[3]["default"].as_bool()),
        (Some("flag"), Some(false))
    );
}

#[test]
fn help_lines() {
    assert_eq!(
        RulesOption::of(OptionId::Holes).help(),
        "Holes per row (RULES.md §1)"
    );
    assert_eq!(
        RulesOption::of(OptionId::CaptureSide).help(),
        "Which casas are captured: in either row (any) or only in the opponent's (opponent) (RULES.md §6.4)"
    );
}
