//! Whole-word search for ABAP names in source lines (docs/decisions.md#d5-14). The reference used a
//! regex `\b<name>\b`, which never matches a name that starts or ends with a non-word
//! character (`/dmo/cl_flight` after a blank) and treats `/` inside names as a boundary. Here
//! an ABAP name character is an ASCII letter, digit, `_` or `/` (namespace delimiters); an
//! occurrence counts when the character before it and the one after it are not name
//! characters, wherever the name's own first / last character is one. `~` and `-` are
//! component selectors, so `lif_order~submit` is found as a whole and `lif_order` inside it.
//! Matching is case-insensitive; the result is a UTF-16 column, like a JS string index.
//! For a `intf~component` name the position points at the component (after the last `~`),
//! so a definition, hover or where-used query is about the method, not the interface.

/// Can this character continue an ABAP name?
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '/'
}

fn same_letter(a: char, b: char) -> bool {
    a == b || a.to_lowercase().eq(b.to_lowercase())
}

/// The UTF-16 column of the first whole-word occurrence of `name` in `line`.
pub(super) fn find_word(line: &str, name: &str) -> Option<usize> {
    let wanted: Vec<char> = name.chars().collect();
    let (first, last) = (*wanted.first()?, *wanted.last()?);
    let chars: Vec<char> = line.chars().collect();
    let mut column = 0;
    for start in 0..chars.len() {
        let end = start + wanted.len();
        let matches = end <= chars.len()
            && chars[start..end]
                .iter()
                .zip(&wanted)
                .all(|(a, b)| same_letter(*a, *b));
        let open_before = start == 0 || !is_name_char(first) || !is_name_char(chars[start - 1]);
        let open_after = end >= chars.len() || !is_name_char(last) || !is_name_char(chars[end]);
        if matches && open_before && open_after {
            return Some(column);
        }
        column += chars[start].len_utf16();
    }
    None
}

/// The UTF-16 column to point at for `name` found in `line`: its component after the last
/// `~`, else its start.
pub(super) fn locate(line: &str, name: &str) -> Option<usize> {
    let start = find_word(line, name)?;
    let component = name
        .rfind('~')
        .map_or(0, |i| name[..=i].encode_utf16().count());
    Some(start + component)
}

/// `(line, column)` of the first whole-word occurrence in `text`, line by line (`\n`).
pub(super) fn find_in_source(text: &str, name: &str) -> Option<(usize, usize)> {
    text.split('\n')
        .enumerate()
        .find_map(|(i, line)| locate(line, name).map(|c| (i, c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_behave_like_word_boundaries() {
        assert_eq!(find_word("  METHODS add.", "ADD"), Some(10));
        assert_eq!(find_word("  METHODS adder.", "add"), None);
        assert_eq!(find_word("x = add( ).", "add"), Some(4));
        assert_eq!(find_word("ls_x-field = 1.", "field"), Some(5));
        assert_eq!(find_word("", "x"), None);
        assert_eq!(find_word("abc", ""), None);
    }

    #[test]
    fn names_with_tilde_and_namespaces() {
        let line = "  METHOD lif_order~submit.";
        assert_eq!(find_word(line, "lif_order~submit"), Some(9));
        assert_eq!(find_word(line, "LIF_ORDER~SUBMIT"), Some(9));
        assert_eq!(find_word(line, "lif_order"), Some(9));
        assert_eq!(find_word(line, "submit"), Some(19));
        assert_eq!(
            find_word("  METHOD lif_order~submit_all.", "lif_order~submit"),
            None
        );
        let ns = "DATA lo TYPE REF TO /dmo/cl_flight.";
        assert_eq!(find_word(ns, "/dmo/cl_flight"), Some(20));
        assert_eq!(
            find_word(ns, "cl_flight"),
            None,
            "part of a namespaced name"
        );
        assert_eq!(find_word("/dmo/cl_flight_x", "/dmo/cl_flight"), None);
        assert_eq!(
            find_word("/DMO/CL_FLIGHT=>run( ).", "/dmo/cl_flight"),
            Some(0)
        );
    }

    #[test]
    fn columns_count_utf16_units() {
        assert_eq!(find_word("\"😀 add", "add"), Some(4));
        assert_eq!(find_in_source("a\nb add\n", "ADD"), Some((1, 2)));
        assert_eq!(find_in_source("a\nb\n", "c"), None);
    }
}
