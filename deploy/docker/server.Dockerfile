# warpwatch-server and the warpwatch CLI on Debian 12, no CUDA. From the repository root:
#   docker build -f deploy/docker/server.Dockerfile -t warpwatch/server .
# Builds only the two binaries (not the tests); runs as an unprivileged user. gRPC 50051,
# /metrics 9464. Settings come as flags or WARPWATCH_* variables (WARPWATCH_DATABASE_URL required).
FROM debian:bookworm AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      build-essential cmake ninja-build pkg-config \
      libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler \
      libpqxx-dev prometheus-cpp-dev libgtest-dev libgmock-dev \
      libcli11-dev nlohmann-json3-dev libspdlog-dev libssl-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cmake -S . -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPWATCH_WITH_CUDA=OFF \
 && cmake --build /build --target warpwatch-server warpwatch

FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      libgrpc++1.51 libprotobuf32 libpqxx-6.4 libprometheus-cpp-core1.0 \
      libprometheus-cpp-pull1.0 libspdlog1.10 libfmt9 libssl3 ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /build/bin/warpwatch-server /build/bin/warpwatch /usr/local/bin/
USER 65532:65532
EXPOSE 50051 9464
ENTRYPOINT ["/usr/local/bin/warpwatch-server"]
