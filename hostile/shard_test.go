package hostile

import (
	"hash/fnv"
	"os"
	"strconv"
	"strings"
)

// The matrix is split across processes that make test runs side by side
// (HOSTILE_SHARD=i/n, i from 1): most of its probes wait for a deadline, and each
// process judges its own heap and goroutines, which probes of one process run in
// parallel would muddle. Unset, a process runs everything.
var shardIndex, shardCount = parseShard(os.Getenv("HOSTILE_SHARD"))

func parseShard(s string) (i, n int) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 1
	}
	return i - 1, n
}

// inShard reports whether the test or (case, protocol) pair named runs here: each
// name in exactly one of the shards.
func inShard(name string) bool {
	if shardCount == 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32()%uint32(shardCount)) == shardIndex
}
