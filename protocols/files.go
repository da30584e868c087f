package protocols

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// MaxSecretFile caps a *_file the exporter reads for a module (passwords, tokens,
// CA bundles): a credential or a certificate chain is a few KiB.
const MaxSecretFile = 64 << 10

// kernelTrees hold files that are not the operator's data: /proc/self/environ or
// /proc/self/mem are "regular" files to stat, and read as the process's secrets.
var kernelTrees = []string{"/proc/", "/sys/", "/dev/"}

// ReadFile reads a file the operator named in the config, refusing what is not a
// regular file: a device (/dev/zero never ends), a FIFO (opening it blocks until
// someone writes, holding the reload), a directory, or a file of the kernel's
// trees, and anything longer than limit. The check is made on the opened file,
// which is opened without blocking, so a path swapped for a FIFO meanwhile fails
// rather than waits.
func ReadFile(path string, limit int64) ([]byte, error) {
	if abs, err := filepath.Abs(path); err == nil {
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		for _, t := range kernelTrees {
			if strings.HasPrefix(abs+"/", t) {
				return nil, fmt.Errorf("%s: not read: files under %s are not the operator's data", path, strings.TrimSuffix(t, "/"))
			}
		}
	}
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s)", path, st.Mode().Type())
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes, over the limit of %d", path, st.Size(), limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: over the limit of %d bytes", path, limit)
	}
	return b, nil
}
