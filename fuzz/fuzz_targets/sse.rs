//! The MCP client's `text/event-stream` parser (`src/mcp/sse.rs`). Invariants: no panic; any
//! split of the same bytes gives the same events; an event never holds a CR (lines end at
//! CR, LF or CRLF); memory proportional to the bytes received.
#![no_main]

use adt_ls_native::fuzzing::sse::SseParser;
use adt_ls_native_fuzz::{chunkings, heap_budget, peak_heap};
use libfuzzer_sys::fuzz_target;

fn parse(chunks: &[&[u8]]) -> Vec<String> {
    let mut parser = SseParser::new();
    let mut events = Vec::new();
    for chunk in chunks {
        events.extend(parser.feed(chunk));
    }
    events
}

fuzz_target!(|data: &[u8]| {
    let mut first: Option<Vec<String>> = None;
    for chunks in chunkings(data) {
        let (events, peak) = peak_heap(|| parse(&chunks));
        assert!(
            peak <= heap_budget(data.len()),
            "parser used {peak} heap bytes for {} input bytes",
            data.len()
        );
        match &first {
            None => first = Some(events),
            Some(expected) => assert_eq!(
                &events,
                expected,
                "chunking changed the events ({} chunks)",
                chunks.len()
            ),
        }
    }
    let events = first.unwrap_or_default();
    assert!(
        events.iter().all(|e| !e.contains('\r')),
        "an event holds a CR"
    );
    let line_ends = data.iter().filter(|b| **b == b'\n' || **b == b'\r').count();
    assert!(
        events.len() <= line_ends / 2,
        "more events than blank lines"
    );
});
