#!/bin/sh
# Downloads the Debian packages of Open MPI (and what they pull in on this image) into
# build-mpi-debs/ (ignored by git, about 14 MB), so that bench/mpi/gpu-run.sh can install them on
# the device machine, which has no network. Run it here, then carry build-mpi-debs to the device.
set -eu
D=build-mpi-debs
mkdir -p $D
cd $D
apt-get download openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libpmix2 libpmix-dev \
    libhwloc15 libhwloc-dev libhwloc-plugins libevent-2.1-7 libevent-core-2.1-7 \
    libevent-extra-2.1-7 libevent-openssl-2.1-7 libevent-pthreads-2.1-7 libevent-dev \
    libfabric1 libucx0 libibverbs1 libibverbs-dev ibverbs-providers librdmacm1 libpsm2-2 \
    libpsm-infinipath1 libnl-3-200 libnl-3-dev libnl-route-3-200 libnl-route-3-dev libmunge2 \
    libxnvctrl0 ocl-icd-libopencl1 libnuma-dev libltdl7 libltdl-dev libcaf-openmpi-3 \
    libcoarrays-dev libcoarrays-openmpi-dev
ls | wc -l
du -sh .
