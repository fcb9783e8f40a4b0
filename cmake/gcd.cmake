# OpenSSL's libcrypto for the PEM/DER RSA keys of `bulk gcd --format pem|der` (src/gcd/keys.c).
# Optional: without it keys.c reports BULK_ERR_UNSUPPORTED and the text format still works.
# Only keys.c gets the include path and the define; libbulk links libcrypto.
find_package(OpenSSL COMPONENTS Crypto)
if(OPENSSL_FOUND)
  set_source_files_properties(${PROJECT_SOURCE_DIR}/src/gcd/keys.c PROPERTIES
    COMPILE_DEFINITIONS BULK_HAVE_OPENSSL=1
    INCLUDE_DIRECTORIES "${OPENSSL_INCLUDE_DIR}")
  target_link_libraries(bulk_static PUBLIC OpenSSL::Crypto)
  target_link_libraries(bulk_shared PUBLIC OpenSSL::Crypto)
  set(BULK_HAVE_OPENSSL ON)
else()
  set(BULK_HAVE_OPENSSL OFF)
endif()
message(STATUS "bulk: OpenSSL (PEM/DER keys for bulk gcd) ${BULK_HAVE_OPENSSL}")
