// Reference for benchmarks/crates.py: the crate line in plain C++17.
//
// Reads the contest's input (n, then n values) and prints its output (diff D, then
// mover M other O). The value is computed over lengths with O(n) memory: only the rows for
// the two previous lengths are kept. With the argument "square" it fills the textbook full
// (n+3) x (n+3) table instead, to compare with the problem's published C++ figure (0.09 s).
// The time of the computation alone (input read, output not yet written) goes to stderr as
// "compute_ms X cpu_ms Y" (wall clock, then this process's CPU time), so the benchmark can
// leave process start-up out.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <cstring>
#include <iostream>
#include <vector>

using Row = std::vector<long long>;

// f_len[l] = best lead for the mover when crates l .. l+len-1 remain (0-based).
static long long solve_rows(const Row& a) {
    const int n = static_cast<int>(a.size());
    Row two_back(n + 2, 0), one_back(n + 2, 0), current(n + 2, 0);
    for (int len = 1; len <= n; ++len) {
        for (int l = 0; l + len <= n; ++l) {
            long long best = a[l] - one_back[l + 1];
            if (len >= 2) best = std::max(best, a[l] + a[l + 1] - two_back[l + 2]);
            best = std::max(best, a[l + len - 1] - one_back[l]);
            current[l] = best;
        }
        std::swap(two_back, one_back);
        std::swap(one_back, current);
    }
    return n ? one_back[0] : 0;
}

// The textbook layout: a square table indexed by (l, r), 1-based, filled by length.
static long long solve_square(const Row& a) {
    const int n = static_cast<int>(a.size());
    std::vector<Row> d(n + 3, Row(n + 3, 0));
    for (int len = 1; len <= n; ++len) {
        for (int l = 1; l + len - 1 <= n; ++l) {
            const int r = l + len - 1;
            long long best = a[l - 1] - d[l + 1][r];
            if (l + 1 <= r) best = std::max(best, a[l - 1] + a[l] - d[l + 2][r]);
            best = std::max(best, a[r - 1] - d[l][r - 1]);
            d[l][r] = best;
        }
    }
    return n ? d[1][n] : 0;
}

int main(int argc, char** argv) {
    const bool square = argc > 1 && std::strcmp(argv[1], "square") == 0;
    std::ios::sync_with_stdio(false);
    int n = 0;
    if (!(std::cin >> n)) return 2;
    Row a(n);
    long long total = 0;
    for (auto& x : a) {
        std::cin >> x;
        total += x;
    }
    const std::clock_t cpu_started = std::clock();
    const auto started = std::chrono::steady_clock::now();
    const long long diff = square ? solve_square(a) : solve_rows(a);
    const auto stopped = std::chrono::steady_clock::now();
    const double cpu_ms = 1000.0 * static_cast<double>(std::clock() - cpu_started) / CLOCKS_PER_SEC;
    const long long mover = (total + diff) / 2;
    std::printf("diff %lld\nmover %lld other %lld\n", diff, mover, total - mover);
    std::fprintf(stderr, "compute_ms %.4f cpu_ms %.4f\n",
                 std::chrono::duration<double, std::milli>(stopped - started).count(), cpu_ms);
    return 0;
}
