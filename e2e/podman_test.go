package e2e

import (
	"archive/tar"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/internal/testenv"
)

// TestPodmanImage builds the image from the repository's Dockerfile with podman,
// checks its metadata and files, and runs it where podman can run containers.
// Where the build stage's golang image is neither present nor pullable, it skips.
func TestPodmanImage(t *testing.T) {
	endToEnd(t, "a container build")
	root := repoRoot(t)
	podman := testenv.LookTool(t, "podman", "podman")

	// Can podman build at all here? A failure of this trivial build is the
	// machine's (storage driver, privileges), not the Dockerfile's.
	probe := t.TempDir()
	if err := os.CopyFS(probe, fstest.MapFS{"Containerfile": {Data: []byte("FROM scratch\nCOPY f /f\n")}, "f": {Data: []byte("x\n")}}); err != nil {
		t.Fatal(err)
	}
	probeTag := fmt.Sprintf("localhost/gameserver_exporter-e2e-probe:%d", os.Getpid())
	if out, err := testenv.RunTool(2*time.Minute, probe, podman, "build", "--layers=false", "-q", "-t", probeTag, "."); err != nil {
		t.Skipf("podman cannot build images on this machine (%v): skipping\n%s", err, out)
	}
	testenv.RunTool(time.Minute, "", podman, "rmi", "-f", probeTag)

	builder := buildImage(t, filepath.Join(root, "Dockerfile"))
	if _, err := testenv.RunTool(time.Minute, "", podman, "image", "exists", builder); err != nil {
		if out, err := testenv.RunTool(2*time.Minute, "", podman, "pull", "-q", builder); err != nil {
			lines := strings.Split(strings.TrimSpace(out), "\n")
			t.Skipf("the Dockerfile builds in %s, which is not on this machine and cannot be pulled (%v): skipping; "+
				"run `podman pull %s` where its registry is reachable\n%s", builder, err, builder, strings.Join(lines[max(0, len(lines)-5):], "\n"))
		}
	}

	tag := fmt.Sprintf("localhost/gameserver_exporter-e2e:%d", os.Getpid())
	start := time.Now()
	out, err := testenv.RunTool(10*time.Minute, root, podman, "build", "--layers=false", "--build-arg", "VERSION=e2e", "-t", tag, ".")
	if err != nil {
		t.Fatalf("podman build: %v\n%s", err, out)
	}
	t.Cleanup(func() { testenv.RunTool(time.Minute, "", podman, "rmi", "-f", tag) })
	t.Logf("podman build: %v", time.Since(start).Round(time.Millisecond))

	out, err = testenv.RunTool(time.Minute, "", podman, "image", "inspect", tag)
	if err != nil {
		t.Fatalf("podman image inspect: %v\n%s", err, out)
	}
	var images []struct {
		Config struct {
			User         string
			ExposedPorts map[string]any
			Entrypoint   []string
			Labels       map[string]string
		}
	}
	if err := json.Unmarshal([]byte(out), &images); err != nil || len(images) != 1 {
		t.Fatalf("image inspect output: %v\n%s", err, out)
	}
	cfg := images[0].Config
	if cfg.User != "65534:65534" {
		t.Errorf("image user %q, want 65534:65534 (nobody)", cfg.User)
	}
	if _, ok := cfg.ExposedPorts["10115/tcp"]; !ok {
		t.Errorf("exposed ports %v, want 10115/tcp", cfg.ExposedPorts)
	}
	if !slices.Equal(cfg.Entrypoint, []string{"/bin/gameserver_exporter"}) {
		t.Errorf("entrypoint %v", cfg.Entrypoint)
	}
	if v := cfg.Labels["org.opencontainers.image.version"]; v != "e2e" {
		t.Errorf("version label %q, want the build arg e2e", v)
	}

	// The image holds exactly the binary, the modules file and the licence (podman
	// create and export need no container runtime).
	ctr, err := testenv.RunTool(time.Minute, "", podman, "create", tag)
	if err != nil {
		t.Fatalf("podman create: %v\n%s", err, ctr)
	}
	ctr = strings.TrimSpace(ctr)
	t.Cleanup(func() { testenv.RunTool(time.Minute, "", podman, "rm", "-f", ctr) })
	files := exportedFiles(t, podman, ctr)
	want := map[string]int64{"bin/gameserver_exporter": 0o755, "etc/gameserver_exporter/modules.yml": 0o644, "LICENSE": 0o644}
	if len(files) != len(want) {
		t.Errorf("image files %v, want only %v", files, want)
	}
	for name, mode := range want {
		if got, ok := files[name]; !ok || got&0o777 != mode {
			t.Errorf("image file %s: mode %o (present %v), want %o", name, got, ok, mode)
		}
	}

	t.Run("run", func(t *testing.T) {
		// No network: the container only validates its modules file and exits.
		out, err := testenv.RunTool(2*time.Minute, "", podman, "run", "--rm", "--network", "none", tag,
			"--config.check", "--config.file=/etc/gameserver_exporter/modules.yml")
		if err != nil && strings.Contains(out, "OCI") {
			t.Skipf("podman cannot run containers on this machine: %s", strings.TrimSpace(out))
		}
		if err != nil || !strings.Contains(out, "Config file is ok") {
			t.Errorf("--config.check in the container: %v\n%s", err, out)
		}
		// The build arg stamps the binary as well as the label.
		out, err = testenv.RunTool(2*time.Minute, "", podman, "run", "--rm", "--network", "none", tag, "--version")
		if err != nil || !strings.Contains(out, "version e2e") {
			t.Errorf("--version in the container: %v\n%s", err, out)
		}
	})
}

// buildImage is the image the Dockerfile's build stage starts FROM.
func buildImage(t *testing.T, dockerfile string) string {
	t.Helper()
	for line := range strings.Lines(string(readFile(t, dockerfile))) {
		if f := strings.Fields(line); len(f) == 4 && strings.EqualFold(f[0], "FROM") && strings.EqualFold(f[2], "AS") {
			return f[1]
		}
	}
	t.Fatalf("%s: no FROM ... AS stage", dockerfile)
	return ""
}

// exportedFiles lists the regular files of a container's filesystem with their modes.
func exportedFiles(t *testing.T, podman, ctr string) map[string]int64 {
	t.Helper()
	archive := filepath.Join(t.TempDir(), "ctr.tar")
	if out, err := testenv.RunTool(time.Minute, "", podman, "export", "-o", archive, ctr); err != nil {
		t.Fatalf("podman export: %v\n%s", err, out)
	}
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	files := map[string]int64{}
	for tr := tar.NewReader(f); ; {
		h, err := tr.Next()
		if err == io.EOF {
			return files
		}
		if err != nil {
			t.Fatalf("podman export: %v", err)
		}
		if h.Typeflag == tar.TypeReg {
			files[strings.TrimPrefix(h.Name, "./")] = h.Mode
		}
	}
}
