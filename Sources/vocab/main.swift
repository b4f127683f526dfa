import VocabCLI
#if canImport(Glibc)
import Glibc
#endif

exit(VocabApp.main(arguments: Array(CommandLine.arguments.dropFirst())))
