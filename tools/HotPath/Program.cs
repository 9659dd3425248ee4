using BenchmarkDotNet.Running;

// One insert through the engine, and the parts of it, on the no-op target (README "Benchmarks"; docs/benchmarks.md).
// tools/bench.sh hot-path [BenchmarkDotNet arguments, e.g. --filter *Insert*]
BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
