/* The fake extension's `adt-lsc.exe` on Windows: a real executable (Rust's spawn and
 * Windows itself run only PE files under an .exe name) that runs
 *   "<node.exe>" "<simulator entry>" <its own arguments, verbatim>
 * with the two paths read from the UTF-8 file "<its own path>.launch" (one per line), the
 * standard handles inherited, and exits with the child's exit code. Like SAP's launcher
 * (which starts a JVM) it leaves its child running when it is killed alone: killing the
 * whole tree is the driver's job (a Job Object), and the Windows lane checks exactly that.
 * Build (mingw): x86_64-w64-mingw32-gcc -O2 -municode -o adt-ls-launcher.exe win32-launcher.c
 */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

static wchar_t *utf8_line(char **cursor) {
  char *start = *cursor, *end = start;
  while (*end && *end != '\n' && *end != '\r') end++;
  int n = MultiByteToWideChar(CP_UTF8, 0, start, (int)(end - start), NULL, 0);
  wchar_t *out = calloc((size_t)n + 1, sizeof(wchar_t));
  if (out) MultiByteToWideChar(CP_UTF8, 0, start, (int)(end - start), out, n);
  while (*end == '\n' || *end == '\r') end++;
  *cursor = end;
  return out;
}

/* The command line after argv[0] (quoted or not), as the C runtime would split it. */
static const wchar_t *args_after_program(const wchar_t *cmd) {
  if (*cmd == L'"') {
    cmd++;
    while (*cmd && *cmd != L'"') cmd++;
    if (*cmd) cmd++;
  } else {
    while (*cmd && *cmd != L' ' && *cmd != L'\t') cmd++;
  }
  while (*cmd == L' ' || *cmd == L'\t') cmd++;
  return cmd;
}

int wmain(void) {
  wchar_t self[32768];
  DWORD len = GetModuleFileNameW(NULL, self, 32768 - 8);
  if (len == 0 || len >= 32768 - 8) return 126;
  wcscat(self, L".launch");
  FILE *f = _wfopen(self, L"rb");
  if (!f) { fwprintf(stderr, L"adt-ls launcher: cannot read %ls\n", self); return 126; }
  static char buf[65536];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  char *cursor = buf;
  wchar_t *node = utf8_line(&cursor), *script = utf8_line(&cursor);
  if (!node || !script || !*node || !*script) { fwprintf(stderr, L"adt-ls launcher: bad %ls\n", self); return 126; }

  const wchar_t *rest = args_after_program(GetCommandLineW());
  size_t size = wcslen(node) + wcslen(script) + wcslen(rest) + 8;
  wchar_t *cmdline = calloc(size, sizeof(wchar_t));
  if (!cmdline) return 126;
  swprintf(cmdline, size, L"\"%ls\" \"%ls\" %ls", node, script, rest);

  STARTUPINFOW si;
  PROCESS_INFORMATION pi;
  ZeroMemory(&si, sizeof si);
  si.cb = sizeof si;
  si.dwFlags = STARTF_USESTDHANDLES;
  si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
  si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
  si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
  if (!CreateProcessW(node, cmdline, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi)) {
    fwprintf(stderr, L"adt-ls launcher: cannot start %ls (error %lu)\n", node, GetLastError());
    return 127;
  }
  CloseHandle(pi.hThread);
  WaitForSingleObject(pi.hProcess, INFINITE);
  DWORD code = 1;
  GetExitCodeProcess(pi.hProcess, &code);
  return (int)code;
}
