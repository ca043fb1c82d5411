# warpwatch-worker on NVIDIA's CUDA runtime image (NVIDIA publishes no Debian-based CUDA image;
# the build stage is the matching devel image). From the repository root:
#   docker build -f deploy/docker/worker.Dockerfile -t warpwatch/worker \
#     --build-arg CUDA_ARCHITECTURES="90-real 90-virtual" .
# Runs with the NVIDIA container toolkit (compose: device reservation; Kubernetes: the device
# plugin). NVML and CUPTI are opened with dlopen: libnvidia-ml comes from the host driver, CUPTI
# is copied from the devel image. /metrics on 9465.
ARG CUDA_VERSION=13.0.0
ARG BASE_OS=ubuntu24.04

FROM nvidia/cuda:${CUDA_VERSION}-devel-${BASE_OS} AS build
ARG CUDA_ARCHITECTURES="90-real 90-virtual"
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      build-essential cmake ninja-build pkg-config \
      libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler \
      libpqxx-dev prometheus-cpp-dev libgtest-dev libgmock-dev \
      libcli11-dev nlohmann-json3-dev libspdlog-dev libssl-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cmake -S . -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPWATCH_WITH_CUDA=ON \
      "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES}" \
 && cmake --build /build --target warpwatch-worker
# The shared libraries the worker links beyond what the runtime image has (copied, so the
# package names of the base release do not matter), and CUPTI with its perf libraries.
RUN mkdir -p /out/lib \
 && ldd /build/bin/warpwatch-worker | awk '/=> \// {print $3}' \
    | grep -vE '/(libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+|libcuda)\.so' \
    | xargs -r -I{} cp -L {} /out/lib/ \
 && find /usr/local/cuda/ \( -name 'libcupti.so*' -o -name 'libnvperf_host.so' \
      -o -name 'libnvperf_target.so' \) -exec cp -L {} /out/lib/ \;

FROM nvidia/cuda:${CUDA_VERSION}-runtime-${BASE_OS}
COPY --from=build /out/lib/ /opt/warpwatch/lib/
COPY --from=build /build/bin/warpwatch-worker /usr/local/bin/
ENV LD_LIBRARY_PATH=/opt/warpwatch/lib:/usr/local/cuda/lib64 \
    NVIDIA_DRIVER_CAPABILITIES=compute,utility \
    CUDA_CACHE_PATH=/tmp/cuda-cache
USER 65532:65532
EXPOSE 9465
ENTRYPOINT ["/usr/local/bin/warpwatch-worker"]
CMD ["serve", "--server", "server:50051"]
