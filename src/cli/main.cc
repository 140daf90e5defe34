#include "cli/app.h"

int main(int argc, char** argv) { return sb::cli::Main(argc, argv); }
