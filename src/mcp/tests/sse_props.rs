//! Property tests of the SSE parser: any chunking of a stream yields the same events as
//! feeding it whole, generated streams (mixed line endings, comments, other fields, split
//! UTF-8) yield exactly their events, and arbitrary bytes never panic.

use crate::mcp::sse::SseParser;
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Line {
    Data { value: String, space: bool },
    Comment(String),
    Field(&'static str, String),
}

#[derive(Debug, Clone, Copy)]
enum Ending {
    Lf,
    Cr,
    CrLf,
}

impl Ending {
    fn text(self) -> &'static str {
        match self {
            Ending::Lf => "\n",
            Ending::Cr => "\r",
            Ending::CrLf => "\r\n",
        }
    }
}

fn line() -> impl Strategy<Value = Line> {
    let text = "[^\r\n]{0,12}";
    prop_oneof![
        4 => (text, any::<bool>()).prop_map(|(value, space)| Line::Data { value, space }),
        1 => text.prop_map(Line::Comment),
        1 => (prop::sample::select(vec!["event", "id", "retry", "x-other"]), text)
            .prop_map(|(name, value)| Line::Field(name, value)),
    ]
}

fn ending() -> impl Strategy<Value = Ending> {
    prop_oneof![Just(Ending::Lf), Just(Ending::Cr), Just(Ending::CrLf)]
}

/// One event: its lines with their endings, then the ending of its blank line.
type Event = (Vec<(Line, Ending)>, Ending);

/// A leading BOM or not, and the events.
fn stream() -> impl Strategy<Value = (bool, Vec<Event>)> {
    let event = (prop::collection::vec((line(), ending()), 0..5), ending());
    (any::<bool>(), prop::collection::vec(event, 0..6))
}

/// Serialise a generated stream and compute the events it must produce.
fn render(bom: bool, events: &[Event]) -> (Vec<u8>, Vec<String>) {
    let mut out = String::new();
    let mut expected = Vec::new();
    let mut previous = Ending::Lf;
    let push_line = |out: &mut String, text: &str, mut end: Ending, previous: &mut Ending| {
        // An empty line right after a CR would merge with it if it ended in LF.
        if text.is_empty() && matches!(previous, Ending::Cr) && matches!(end, Ending::Lf) {
            end = Ending::CrLf;
        }
        out.push_str(text);
        out.push_str(end.text());
        *previous = end;
    };
    for (lines, blank_end) in events {
        let mut data: Vec<String> = Vec::new();
        for (line, end) in lines {
            let text = match line {
                Line::Data { value, space } => {
                    data.push(value.clone());
                    let sep = if *space || value.starts_with(' ') {
                        " "
                    } else {
                        ""
                    };
                    format!("data:{sep}{value}")
                }
                Line::Comment(text) => format!(":{text}"),
                Line::Field(name, value) => format!("{name}: {value}"),
            };
            push_line(&mut out, &text, *end, &mut previous);
        }
        push_line(&mut out, "", *blank_end, &mut previous);
        if !data.is_empty() {
            expected.push(data.join("\n"));
        }
    }
    let mut bytes = if bom {
        b"\xEF\xBB\xBF".to_vec()
    } else {
        Vec::new()
    };
    bytes.extend_from_slice(out.as_bytes());
    (bytes, expected)
}

fn feed_in_chunks(bytes: &[u8], cuts: &[usize]) -> Vec<String> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    points.sort_unstable();
    points.dedup();
    let mut parser = SseParser::new();
    let mut events = Vec::new();
    let mut start = 0;
    for point in points.into_iter().chain(std::iter::once(bytes.len())) {
        events.extend(parser.feed(&bytes[start..point]));
        start = point;
    }
    events
}

proptest! {
    // No failure files: tests never write into the source tree.
    #![proptest_config(ProptestConfig {
        cases: 512,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn generated_streams_yield_their_events((bom, events) in stream()) {
        let (bytes, expected) = render(bom, &events);
        prop_assert_eq!(SseParser::new().feed(&bytes), expected);
    }

    #[test]
    fn any_chunking_yields_the_same_events(
        (bom, events) in stream(),
        cuts in prop::collection::vec(any::<usize>(), 0..40),
    ) {
        let (bytes, expected) = render(bom, &events);
        prop_assert_eq!(feed_in_chunks(&bytes, &cuts), expected);
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_chunking_does_not_matter(
        bytes in prop::collection::vec(any::<u8>(), 0..300),
        cuts in prop::collection::vec(any::<usize>(), 0..20),
    ) {
        let whole = SseParser::new().feed(&bytes);
        prop_assert_eq!(feed_in_chunks(&bytes, &cuts), whole);
    }

    #[test]
    fn sse_like_noise_never_panics(
        parts in prop::collection::vec(
            prop::sample::select(vec!["data:", "data: ", "\r", "\n", "\r\n", ":", "{", "}", "\u{e9}", "\u{2603}", "\u{FEFF}", "id: 1", "x"]),
            0..80),
        cuts in prop::collection::vec(any::<usize>(), 0..20),
    ) {
        let bytes = parts.concat().into_bytes();
        let whole = SseParser::new().feed(&bytes);
        prop_assert_eq!(feed_in_chunks(&bytes, &cuts), whole);
    }
}
