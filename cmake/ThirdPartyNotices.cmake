# The licences that go with what cudaleak ships: its own (LICENSE), the
# notices of what it bundles (THIRD-PARTY-NOTICES.md), and each bundled
# library's Debian copyright file, copied into build/share/doc/cudaleak so
# that build/ carries them too, and installed beside the docs. The .deb gets
# Debian's /usr/share/doc/cudaleak/copyright and changelog.Debian.gz.
set(CUDALEAK_NOTICES_DIR ${CMAKE_BINARY_DIR}/share/doc/cudaleak)
file(MAKE_DIRECTORY ${CUDALEAK_NOTICES_DIR}/third-party)
configure_file(${CMAKE_SOURCE_DIR}/LICENSE ${CUDALEAK_NOTICES_DIR}/LICENSE COPYONLY)
configure_file(${CMAKE_SOURCE_DIR}/THIRD-PARTY-NOTICES.md ${CUDALEAK_NOTICES_DIR}/THIRD-PARTY-NOTICES.md COPYONLY)
set(bundled_packages libunwind8 libdw1 libelf1 zlib1g liblzma5 libbz2-1.0 libzstd1 libspdlog-dev libfmt-dev
    nlohmann-json3-dev libcli11-dev)
foreach(package ${bundled_packages})
  if(EXISTS /usr/share/doc/${package}/copyright)
    configure_file(/usr/share/doc/${package}/copyright ${CUDALEAK_NOTICES_DIR}/third-party/${package}.copyright COPYONLY)
  else()
    message(WARNING "cudaleak: /usr/share/doc/${package}/copyright not found; its notice is not bundled")
  endif()
endforeach()

# Debian's copyright file (machine-readable format) and changelog.
string(TIMESTAMP year "%Y" UTC)
set(copyright_text "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: cudaleak
Comment: the bundled libraries' own copyright files are in /usr/share/doc/cudaleak/third-party/;
 THIRD-PARTY-NOTICES.md beside this file lists them with their licences.

Files: *
Copyright: ${year} the cudaleak authors
License: Apache-2.0
 On Debian systems the full text of the Apache License 2.0 is in
 /usr/share/common-licenses/Apache-2.0, and in /usr/share/doc/cudaleak/LICENSE.
")
foreach(package ${bundled_packages})
  string(APPEND copyright_text "\nFiles: third-party/${package}.copyright\nComment: the notice of Debian's ${package}, bundled\n")
endforeach()
file(WRITE ${CMAKE_BINARY_DIR}/debian/copyright "${copyright_text}")
string(TIMESTAMP changelog_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE ${CMAKE_BINARY_DIR}/debian/changelog.Debian
     "cudaleak (${PROJECT_VERSION}) unstable; urgency=medium\n\n  * Release ${PROJECT_VERSION}; the changes are in the project's history.\n\n -- cudaleak maintainers <cudaleak@localhost>  ${changelog_date}\n")
find_program(GZIP gzip REQUIRED)
execute_process(COMMAND ${GZIP} -9nf ${CMAKE_BINARY_DIR}/debian/changelog.Debian)

install(DIRECTORY ${CUDALEAK_NOTICES_DIR}/ DESTINATION share/doc/cudaleak)
install(FILES ${CMAKE_BINARY_DIR}/debian/copyright ${CMAKE_BINARY_DIR}/debian/changelog.Debian.gz
        DESTINATION share/doc/cudaleak)
