/* Under cudaleak (wrapped by cudaleak_wrap_tests) the checkpoint API answers. */
#include <cudaleak.h>
#include <stdio.h>

int main(void) {
  int found = cudaleak_checkpoint("start");
  printf("cudaleak_checkpoint: %d\n", found);
  return found == 0 ? 0 : 1;
}
