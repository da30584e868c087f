package rfactor

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// The own test vectors in testdata/*.vec are escaped hex built from
// gamedig's reader (format: prototest.ParseVec).

func readVec(t testing.TB, name string) []byte { return prototest.VecFile(t, name) }

func allVecs(t testing.TB) map[string][]byte { return prototest.AllVecs(t) }
