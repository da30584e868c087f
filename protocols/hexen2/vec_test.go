package hexen2

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// The own test vectors in testdata/*.vec are escaped hex built from
// the engine's net_dgrm.c layouts (format: prototest.ParseVec).

func readVec(t testing.TB, name string) []byte { return prototest.VecFile(t, name) }

func allVecs(t testing.TB) map[string][]byte { return prototest.AllVecs(t) }
