//! LSP base-protocol framing (`src/lsp/framing.rs`). Invariants, for any bytes cut into
//! chunks any way: no panic; the same frames and the same error whatever the cuts; memory
//! proportional to the bytes received (a `Content-Length` claim alone allocates nothing);
//! decoded frames, encoded again, decode to themselves.
#![no_main]

use adt_ls_native::fuzzing::framing::{encode, Decoder, FramingError};
use adt_ls_native_fuzz::{chunkings, heap_budget, peak_heap};
use libfuzzer_sys::fuzz_target;

type Outcome = (Vec<Vec<u8>>, Option<FramingError>);

fn decode(chunks: &[&[u8]]) -> Outcome {
    let mut decoder = Decoder::new();
    let mut frames = Vec::new();
    for chunk in chunks {
        decoder.push(chunk);
        loop {
            match decoder.next_frame() {
                Ok(Some(frame)) => frames.push(frame),
                Ok(None) => break,
                // A framing error ends the stream: nothing after it is trusted.
                Err(e) => return (frames, Some(e)),
            }
        }
    }
    (frames, None)
}

fuzz_target!(|data: &[u8]| {
    let mut first: Option<Outcome> = None;
    for chunks in chunkings(data) {
        let (outcome, peak) = peak_heap(|| decode(&chunks));
        assert!(
            peak <= heap_budget(data.len()),
            "decoder used {peak} heap bytes for {} input bytes",
            data.len()
        );
        match &first {
            None => first = Some(outcome),
            Some(expected) => assert_eq!(
                &outcome,
                expected,
                "chunking changed the result ({} chunks)",
                chunks.len()
            ),
        }
    }
    let Some((frames, _)) = first else { return };
    let stream: Vec<u8> = frames.iter().flat_map(|f| encode(f)).collect();
    assert_eq!(
        decode(&[&stream]),
        (frames, None),
        "re-encoded frames differ"
    );
});
