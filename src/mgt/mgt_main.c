#include "config.h"
#include <stdio.h>
int main(void);
int main(void) { return (0); }
