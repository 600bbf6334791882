//! How an error repeats what it was given: [`echo`].

/// At most this many characters of an input are repeated in an error.
pub const ECHO_CHARS: usize = 32;

/// `input` as an error repeats it: whole up to [`ECHO_CHARS`] characters,
/// else its first [`ECHO_CHARS`] and `…`, so that a huge input does not
/// come back whole.
pub fn echo(input: &str) -> String {
    match input.char_indices().nth(ECHO_CHARS) {
        None => input.to_string(),
        Some((i, _)) => format!("{}…", &input[..i]),
    }
}
