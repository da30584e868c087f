package list

import (
	"net"
	"strconv"
	"strings"
)

// hostPort is a target's name as lists name servers: lower case, no final dot,
// with the port.
func hostPort(name string, port uint16) string {
	return net.JoinHostPort(strings.ToLower(strings.TrimSuffix(name, ".")), strconv.Itoa(int(port)))
}
