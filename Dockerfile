# A static gameserver_exporter on an empty base image, running as nobody.
# Build the binary first (no image is pulled, so this builds offline too):
#   make build && podman build -t gameserver_exporter .
FROM scratch
ARG VERSION=dev
LABEL org.opencontainers.image.title="gameserver_exporter" \
      org.opencontainers.image.description="Prometheus exporter for game servers (multi-target, like blackbox_exporter)" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.source="https://github.com/gameserver-exporter/gameserver_exporter"
COPY gameserver_exporter /bin/gameserver_exporter
COPY examples/modules.yml /etc/gameserver_exporter/modules.yml
USER 65534:65534
EXPOSE 10115
ENTRYPOINT ["/bin/gameserver_exporter"]
