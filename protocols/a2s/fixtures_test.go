package a2s

import (
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// The real captures in shared/fixtures, read in place: every .expected.json is
// decoded and compared field by field (the GoldSrc ones in package goldsrc).

func TestFixturesA2S(t *testing.T) { steamtest.CheckFixtures(t, prototest.FixtureDir(t, "a2s")) }

func TestFixturesConstructed(t *testing.T) {
	steamtest.CheckFixtures(t, filepath.Join(prototest.FixtureDir(t, "a2s"), "constructed"))
}

var checkKV = steamtest.CheckKV
