// libFuzzer's entry point for programs that keep their own main (libclang_rt.fuzzer_no_main,
// linked by scripts/fuzz.sh): runs the fuzzing loop with the command-line flags libFuzzer
// documents (-max_total_time, -runs, corpus folders, ...), calling `callback` per input.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
