package hawakening_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/config/configtest"
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
	configtest.Modules(t, good, "hawken_eu", "hawakening")
	configtest.Refused(t, map[string]string{
		strings.Replace(good, "server_guid", "server_id", 1):                           "server_id",
		strings.Replace(good, "aaaaaaaa-0000-4000-8000-000000000001", "not/a/guid", 1): "server_guid",
		strings.Replace(good, pwFile, pwFile+".missing", 1):                            "password",
	})
}
