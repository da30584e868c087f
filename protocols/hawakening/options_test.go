package hawakening_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// The options block as a modules file gives it: the password from a file, no
// targets: list needed (the password goes to the backend only).
func TestOptionsYAML(t *testing.T) {
	pwFile := filepath.Join(t.TempDir(), "hawakening.pw")
	prototest.WriteFile(t, pwFile, "correct horse battery\n")
	good := `modules:
  hawken_eu:
    protocol: hawakening
    hawakening:
      username: pilot@example.com
      password_file: ` + pwFile + `
      server_guid: aaaaaaaa-0000-4000-8000-000000000001
`
	c, err := config.Parse([]byte(good))
	prototest.NoError(t, err)
	for _, m := range []string{"hawken_eu", "hawakening"} {
		if c.Modules[m] == nil || c.Modules[m].Querier() == nil {
			t.Errorf("module %s not built", m)
		}
	}
	prototest.Refused(t, parse, map[string]string{
		strings.Replace(good, "server_guid", "server_id", 1):                           "server_id",
		strings.Replace(good, "aaaaaaaa-0000-4000-8000-000000000001", "not/a/guid", 1): "server_guid",
		strings.Replace(good, pwFile, pwFile+".missing", 1):                            "password",
	})
}

// parse is config.Parse for prototest.Refused.
func parse(b []byte) error { _, err := config.Parse(b); return err }
