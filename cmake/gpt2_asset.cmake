# GPT-2 BPE ranks + Unicode letter/number tables, generated at build time from the npm `tiktoken`
# package (node_modules/tiktoken/encoders/gpt2.json) by scripts/gen-gpt2-asset.mjs into
# ${PROJECT_BINARY_DIR}/generated, then compiled into embedlab_core (native and wasm alike).
# Nothing is downloaded: `npm ci` must have run in the repository root.
#
# Usage: include(cmake/gpt2_asset.cmake) anywhere after project(); if embedlab_core does not exist
# yet, attaching the sources is deferred to the end of the top-level CMakeLists.txt.
include_guard(GLOBAL)
find_program(EMBEDLAB_NODE NAMES node nodejs REQUIRED)
set(EMBEDLAB_GPT2_JSON ${PROJECT_SOURCE_DIR}/node_modules/tiktoken/encoders/gpt2.json)
if(NOT EXISTS ${EMBEDLAB_GPT2_JSON})
  message(FATAL_ERROR "${EMBEDLAB_GPT2_JSON} not found. HINT: run `npm ci` in ${PROJECT_SOURCE_DIR} first.")
endif()
set(EMBEDLAB_GENERATED_DIR ${PROJECT_BINARY_DIR}/generated)
set(EMBEDLAB_GPT2_SOURCES ${EMBEDLAB_GENERATED_DIR}/gpt2_ranks.cpp ${EMBEDLAB_GENERATED_DIR}/unicode_classes.cpp)
add_custom_command(
  OUTPUT ${EMBEDLAB_GPT2_SOURCES}
  COMMAND ${EMBEDLAB_NODE} ${PROJECT_SOURCE_DIR}/scripts/gen-gpt2-asset.mjs ${EMBEDLAB_GPT2_JSON} ${EMBEDLAB_GENERATED_DIR}
  DEPENDS ${PROJECT_SOURCE_DIR}/scripts/gen-gpt2-asset.mjs ${EMBEDLAB_GPT2_JSON}
  COMMENT "Generating GPT-2 BPE ranks and Unicode tables from npm tiktoken"
  VERBATIM)

function(embedlab_attach_gpt2_asset)
  target_sources(embedlab_core PRIVATE ${EMBEDLAB_GPT2_SOURCES})
endfunction()
if(TARGET embedlab_core)
  embedlab_attach_gpt2_asset()
else()
  cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL embedlab_attach_gpt2_asset)
endif()
