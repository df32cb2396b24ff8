"""The run lengths of a perftest-compare boot, shared by its table scripts.

With PERF_LAT_ITERS_ALT / PERF_BW_ITERS_ALT set, even repetitions ran the second length (N2)
instead of the first (N1); both scripts take the four lengths as arguments 2-5.
"""


def from_argv(argv):
    """{"lat": (N1, N2), "bw": (N1, N2)} from argv[2:6]; N2 is 0 when not given."""
    return {"lat": (int(argv[2]), int(argv[3])), "bw": (int(argv[4]), int(argv[5]))}


def of_test(lengths, test):
    """(N1, N2) of a test: the latency lengths for *_lat, the bandwidth ones otherwise."""
    return lengths["lat" if test.endswith("_lat") else "bw"]


def of_run(lengths, test, rep):
    """The operations repetition rep of test ran."""
    n1, n2 = of_test(lengths, test)
    return n2 if n2 and rep % 2 == 0 else n1
