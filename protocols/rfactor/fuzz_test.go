package rfactor

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// No real rFactor capture is committed: the seeds are the own vectors.
func FuzzDecode(f *testing.F) { prototest.FuzzVecs(f, 0, decoded) }

// decoded is decode and the Result it leads to.
var decoded = prototest.Decoded(decode, (*reply).Result)
