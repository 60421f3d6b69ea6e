/* Wine 8.0 lacks bcryptprimitives.dll, whose ProcessPrng Rust's std imports on Windows
 * ("Error: Module not found." when node.exe loads the addon). This shim, installed only
 * into the Windows lane's Wine prefix, implements it with advapi32's RtlGenRandom.
 * Build: x86_64-w64-mingw32-gcc -shared -o bcryptprimitives.dll bcryptprimitives.c bcryptprimitives.def
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
    if (!SystemFunction036(data, chunk)) return FALSE;
    data += chunk;
    length -= chunk;
  }
  return TRUE;
}
