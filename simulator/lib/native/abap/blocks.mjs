// ABAP block structure: which statements open a block (and which END* closes it), which
// continue one (ELSE, WHEN, CATCH, ...), and the class section statements.

const SIMPLE_BLOCKS = {
  METHOD: 'ENDMETHOD',
  FORM: 'ENDFORM',
  FUNCTION: 'ENDFUNCTION',
  MODULE: 'ENDMODULE',
  IF: 'ENDIF',
  LOOP: 'ENDLOOP',
  DO: 'ENDDO',
  WHILE: 'ENDWHILE',
  CASE: 'ENDCASE',
  TRY: 'ENDTRY',
};

export const MIDDLE_KEYWORDS = new Set(['ELSE', 'ELSEIF', 'WHEN', 'CATCH', 'CLEANUP']);
export const SECTION_KEYWORDS = new Set(['PUBLIC', 'PROTECTED', 'PRIVATE']);
export const CLOSING_KEYWORDS = new Set(['ENDCLASS', 'ENDINTERFACE', ...Object.values(SIMPLE_BLOCKS)]);

/** The END* keyword a statement (upper-cased words) opens a block for, or undefined. */
export function blockCloser(words) {
  const [first] = words;
  if (first === 'CLASS') {
    if (words.includes('DEFERRED') || words.includes('LOAD')) return undefined;
    return words.includes('DEFINITION') || words.includes('IMPLEMENTATION') ? 'ENDCLASS' : undefined;
  }
  if (first === 'INTERFACE') {
    if (words.length < 2 || words.includes('DEFERRED') || words.includes('LOAD')) return undefined;
    return 'ENDINTERFACE';
  }
  if (first === 'MODULE' && words.length < 2) return undefined;
  return SIMPLE_BLOCKS[first];
}

/** True for `PUBLIC SECTION.` and friends. */
export function isSection(words) {
  return words.length === 2 && SECTION_KEYWORDS.has(words[0]) && words[1] === 'SECTION';
}
